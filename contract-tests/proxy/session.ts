/**
 * Judged traffic, wherever it comes from (the live proxy, a HAR file, a replay): prints each
 * finding as one line as it is found, keeps the HAR entries when recording, and writes the same
 * reports as `dataapi contract` (console, JUnit, JSON, HTML) with the coverage the traffic gave.
 */
import path from 'node:path';
import type { ServiceModel } from 'dataapi/model';
import { redactorFor } from 'dataapi/runtime/shared';
import { writeReports } from '../reports/index.ts';
import type { ContractRunResult, TrafficJudging } from '../results.ts';
import { harEntry, writeHar, type HarEntry } from './har.ts';
import type { JudgedExchange } from './judge.ts';
import { findingLine, TrafficLog } from './log.ts';
import type { Observed } from './observed.ts';

export interface SessionOptions {
  model: ServiceModel;
  out: NodeJS.WritableStream;
  /** The keys no output may contain (grows as the proxy sees requests). */
  secrets: () => string[];
  /** Keep HAR entries (the proxy's --record). */
  record?: boolean;
  /** How much of the traffic was judged (the live proxy: judging may fall behind). */
  judging?: () => TrafficJudging;
}

export interface ReportOptions {
  reporters?: string[];
  /** Absolute report directory. */
  reportDir: string;
  root: string;
  /** The deployment, as reports name it (no key). */
  target: string;
  /** Print the console report (the final one) or only the summary line (periodic ones). */
  quiet?: boolean;
  /** The description file, where the SARIF report locates its results. */
  descriptionFile?: string;
}

export class TrafficSession {
  readonly log = new TrafficLog();
  readonly entries: HarEntry[] = [];
  constructor(private o: SessionOptions) {}

  observe(observed: Observed, j: JudgedExchange): void {
    // Most exchanges print nothing and are not recorded: no redactor to look up for them.
    const redactor =
      j.findings.length > 0 || this.o.record ? redactorFor(this.o.secrets()) : undefined;
    // Lines are composed from redacted values; the pass here covers a key learnt just now.
    for (const f of j.findings) this.o.out.write(`${redactor!.composed(findingLine(f))}\n`);
    this.log.add(j);
    if (this.o.record) this.entries.push(harEntry(observed, redactor!));
  }

  async recordTo(file: string, version: string): Promise<void> {
    await writeHar(file, this.entries, version);
  }

  /** Writes the reports of the traffic so far; the run result they were written from. */
  async report(r: ReportOptions): Promise<ContractRunResult> {
    const result = this.log.result(this.o.model, r.target);
    if (this.o.judging) result.traffic = this.o.judging();
    const reporters = r.quiet ? (r.reporters ?? []).filter((n) => n !== 'console') : r.reporters;
    await writeReports(result, {
      model: this.o.model,
      ...(reporters ? { reporters } : {}),
      dir: r.reportDir,
      root: r.root,
      out: r.quiet ? nowhere : this.o.out,
      secrets: this.o.secrets(),
      resultsFile: path.join(r.reportDir, 'contract-results.json'),
      ...(r.descriptionFile !== undefined ? { descriptionFile: r.descriptionFile } : {}),
    });
    return result;
  }
}

const nowhere = { write: () => true } as unknown as NodeJS.WritableStream;
