/** The CI workflow `dataapi init --ci` writes: every command reads the configuration file. */

/** Machines the contract suite is split over (`contract --shard i/SHARDS`). */
export const SHARDS = 4;

export function ciWorkflow(): string {
  const shards = Array.from({ length: SHARDS }, (_, i) => i + 1).join(', ');
  return `# Written by \`dataapi init --ci\`: keep the description, the generated code and the contract in step.
name: dataapi

on:
  push:
    branches: [main]
  pull_request:

permissions:
  contents: read

jobs:
  check:
    runs-on: ubuntu-latest
    timeout-minutes: 10
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
          cache: npm
      - run: npm ci
      - name: Lint the description
        run: npx dataapi lint
      - name: Generated code is up to date
        run: npx dataapi generate --check

  # The contract suite against the embedded mock, split over ${SHARDS} machines; each uploads its
  # report folder, and the report job merges them into one set of reports.
  contract:
    runs-on: ubuntu-latest
    timeout-minutes: 20
    strategy:
      fail-fast: false
      matrix:
        shard: [${shards}]
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
          cache: npm
      - run: npm ci
      - name: Contract suite against the embedded mock, one shard
        env:
          SHARD: \${{ matrix.shard }}
        run: npx dataapi contract --shard "$SHARD/${SHARDS}" --report-dir "reports/shard-$SHARD"
      - name: Upload the shard's results
        if: \${{ !cancelled() }}
        uses: actions/upload-artifact@v4
        with:
          name: shard-\${{ matrix.shard }}
          path: reports/shard-\${{ matrix.shard }}/
          if-no-files-found: error

  report:
    needs: contract
    # Also when a shard failed: the merged reports say what failed, and this job fails too.
    if: \${{ !cancelled() }}
    runs-on: ubuntu-latest
    timeout-minutes: 10
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
          cache: npm
      - run: npm ci
      - name: Download the shards' results
        uses: actions/download-artifact@v4
        with:
          pattern: shard-*
          path: reports
      - name: Merge the shards into one set of reports
        run: npx dataapi report merge reports/shard-* --report-dir reports/merged
      - name: Upload the contract report
        if: \${{ !cancelled() }}
        uses: actions/upload-artifact@v4
        with:
          name: contract-report
          path: reports/merged/
          if-no-files-found: warn
`;
}
