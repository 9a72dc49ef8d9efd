/** The CI workflow `dataapi init --ci` writes: every command reads the configuration file. */
export function ciWorkflow(): string {
  return `# Written by \`dataapi init --ci\`: keep the description, the generated code and the contract in step.
name: dataapi

on:
  push:
    branches: [main]
  pull_request:

permissions:
  contents: read

jobs:
  contract:
    runs-on: ubuntu-latest
    timeout-minutes: 20
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
      - name: Contract suite against the embedded mock
        run: npx dataapi contract --reporter console,junit,html --report-dir reports
      - name: Upload the contract report
        if: \${{ !cancelled() }}
        uses: actions/upload-artifact@v4
        with:
          name: contract-report
          path: reports/
          if-no-files-found: warn
`;
}
