/**
 * The mock's state: asynchronous tasks (op.async) that move through their states over successive
 * polls, and knowledge-base style uploads that answer with the files actually uploaded.
 */
import { isObject, type Obj, type Operation, type ServiceModel } from 'dataapi/model';
import type { UploadedFile } from 'dataapi/runtime/server';
import { hashText } from 'dataapi/runtime/sampler';
import type { Canned, OperationMock } from './catalogue.ts';

interface Task {
  id: string;
  polls: number;
  pollingUrl: string;
}

const MAX_TASKS = 10_000;

export class TaskStore {
  private readonly tasks = new Map<string, Task>();
  /** Id base -> the suffix its next task tries (a load test repeating one submit stays O(1)). */
  private readonly next = new Map<string, number>();

  /**
   * A task for a submit whose request reads `content`. Its id is a hash of that content, not a
   * count of submits: a suite whose checks submit at once gets the same ids on every run, whatever
   * order their requests reach the mock in. The same content submitted again gets `_2`, `_3`, ...
   */
  create(content: string, pollingUrlFor: (id: string) => string): Task {
    const base = `op_mock_${hashText(content).toString(16).padStart(8, '0')}`;
    let n = this.next.get(base) ?? 1;
    let id = n === 1 ? base : `${base}_${n}`;
    while (this.tasks.has(id)) id = `${base}_${++n}`;
    this.next.delete(base); // kept in order of use: the least recently used base goes first
    this.next.set(base, n + 1);
    if (this.next.size > MAX_TASKS) this.next.delete(this.next.keys().next().value as string);
    const task = { id, polls: 0, pollingUrl: pollingUrlFor(id) };
    if (this.tasks.size >= MAX_TASKS) {
      const oldest = this.tasks.keys().next().value;
      if (oldest !== undefined) this.tasks.delete(oldest);
    }
    this.tasks.set(id, task);
    return task;
  }

  get(id: string): Task | undefined {
    return this.tasks.get(id);
  }
}

/**
 * The states a status operation moves through: its examples, the one with the fullest payload
 * (the result) last, the others (queued, running, ...) before it in the spec's order.
 */
export function statusSequence(mock: OperationMock): Canned[] {
  const all = [...mock.byName.values()];
  if (all.length === 0) return [mock.fallback];
  const size = (c: Canned) => (isObject(c.payload) ? Object.keys(c.payload).length : 0);
  let final = all[0] as Canned;
  for (const c of all) if (size(c) > size(final)) final = c;
  return [...all.filter((c) => c !== final), final];
}

/** The payload with the task's id, state and polling address written in (top level). */
export function withTask(op: Operation, payload: unknown, task: Task, state?: string): unknown {
  const link = op.async;
  if (!link || !isObject(payload)) return payload;
  const out: Obj = { ...payload };
  out[link.operationIdField] = task.id;
  out[link.pollingUrlField] = task.pollingUrl;
  if (state !== undefined) out[link.statusField] = state;
  return out;
}

/** The status operation's path with its task id filled in. */
export function pollingPath(partner: Operation, id: string): string {
  let done = false;
  return partner.path.replace(/\{[^}]*\}/g, () => {
    if (done) return '';
    done = true;
    return encodeURIComponent(id);
  });
}

export function findOperation(model: ServiceModel, id: string): Operation | undefined {
  return model.operations.find((o) => o.id === id);
}

const NAME_KEYS = ['file_name', 'fileName', 'filename', 'name'];
const SIZE_KEYS = ['file_size', 'fileSize', 'size'];
const ID_KEYS = ['document_id', 'documentId', 'file_id', 'fileId', 'id'];

/**
 * An upload's answer: the payload's list of file records (found by a file-name field) rebuilt
 * from the uploaded files, each from the example's record, so the statuses stay as documented.
 */
export function withUploads(payload: unknown, files: UploadedFile[]): unknown {
  if (!isObject(payload) || files.length === 0) return payload;
  for (const [key, value] of Object.entries(payload)) {
    if (!Array.isArray(value) || !isObject(value[0])) continue;
    const template = value[0];
    const nameKey = NAME_KEYS.find((k) => k in template);
    if (!nameKey) continue;
    const sizeKey = SIZE_KEYS.find((k) => k in template && typeof template[k] === 'number');
    const idKey = ID_KEYS.find((k) => k in template && typeof template[k] === 'string');
    const records = files.map((file, i) => {
      const record: Obj = { ...template, [nameKey]: file.filename };
      if (sizeKey) record[sizeKey] = file.size;
      if (idKey) record[idKey] = `${String(template[idKey])}_${i + 1}`;
      return record;
    });
    return { ...payload, [key]: records };
  }
  return payload;
}
