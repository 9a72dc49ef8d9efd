/**
 * Resources the user's test data names. A create body given with --test-data (a zone
 * `probe.example.`) names the same resource every time it is sent, so a second create of it is
 * refused (PowerDNS: 409 Conflict): sent for several operations at once, all but one failed, and
 * their operations ran on made-up identifiers. Such a resource is created once and held for the
 * run, shared by every operation (and variant) that needs it:
 *
 * - operations that only use it share it, at once;
 * - an operation that writes on it (PUT, PATCH, DELETE on the item) or sends the same create
 *   (the creator itself) has it alone, so no other request meets it half changed;
 * - after a rename (renames.ts) it is known by its new identifier; once deleted by an operation
 *   under test it is created again by the next that needs it (never while another has it);
 * - what the suite created is deleted at the end of the worker's run (its last operation), or,
 *   when the worker does not know its order, as soon as no operation has it.
 *
 * Held per worker: the contract suite runs on one worker (vitest.config.ts); workers started with
 * VITEST_MAX_WORKERS hold one each.
 */
import type { Operation, ServiceModel } from 'dataapi/model';

/** The resource: where it is now, and whether the suite created it (and must delete it). */
export interface HeldResource {
  /** Path values that name it (the collection's and its own identifier). */
  path: Record<string, unknown>;
  /** The identifier's parameter (`zone_id`). */
  param: string;
  /** What the suite sent to create it (`POST /zones answered HTTP 201`). */
  how: string;
  remover?: Operation;
  reader?: Operation;
}

/** A hold on one resource, released once the operation's requests are all answered. */
export interface Lease {
  /** The resource now (undefined: none; create it with `create`, which runs once at a time). */
  readonly resource: HeldResource | undefined;
  /** Creates the resource unless another holder already did (each waits for the one create). */
  create(make: () => Promise<HeldResource | undefined>): Promise<HeldResource | undefined>;
  /** The resource is gone (an operation under test deleted it) or its identifier is lost. */
  forget(): void;
  /** Deletes the resource (held alone: before its creator sends the same create itself). */
  clear(): Promise<void>;
  /** The resource now has another identifier (a rename followed). */
  rename(value: unknown): void;
  release(): void;
}

/** Deletes a resource the suite created; not judged. */
export type Remove = (resource: HeldResource) => Promise<void>;

interface Waiter {
  exclusive: boolean;
  go: () => void;
}

/** One held resource: a readers-writer lock (first come, first served) and its state. */
class Entry {
  resource: HeldResource | undefined;
  creating: Promise<HeldResource | undefined> | undefined;
  private sharing = 0;
  private alone = false;
  private queue: Waiter[] = [];

  constructor(private onIdle: (e: Entry) => void) {}

  get idle(): boolean {
    return this.sharing === 0 && !this.alone && this.queue.length === 0;
  }

  acquire(exclusive: boolean): Promise<void> {
    return new Promise((go) => {
      this.queue.push({ exclusive, go });
      this.pump();
    });
  }

  releaseOne(exclusive: boolean): void {
    if (exclusive) this.alone = false;
    else this.sharing--;
    this.pump();
    if (this.idle) this.onIdle(this);
  }

  private pump(): void {
    while (this.queue.length > 0 && !this.alone) {
      const next = this.queue[0]!;
      if (next.exclusive && this.sharing > 0) return;
      this.queue.shift();
      if (next.exclusive) this.alone = true;
      else this.sharing++;
      next.go();
      if (next.exclusive) return;
    }
  }
}

interface Registry {
  entries: Map<string, Entry>;
  remove?: Remove;
  /** Delete as soon as no operation holds it (the worker does not know its last operation). */
  whenIdle: boolean;
}

const registries = new WeakMap<ServiceModel, Registry>();

function registryOf(model: ServiceModel): Registry {
  let r = registries.get(model);
  if (!r) registries.set(model, (r = { entries: new Map(), whenIdle: true }));
  return r;
}

/**
 * How the worker deletes what it created, and whether it knows its last operation (then the
 * resources are deleted by `releaseHeld` after it, else each as soon as no operation holds it).
 */
export function holdResources(model: ServiceModel, remove: Remove, knowsEnd: boolean): void {
  const r = registryOf(model);
  r.remove ??= remove;
  r.whenIdle = !knowsEnd;
}

/**
 * Holds the resource its creator's given body names: shared, or alone (`exclusive`) for an
 * operation that changes it. One per creator: the body is the same for every collection.
 */
export async function hold(
  model: ServiceModel,
  creator: Operation,
  exclusive: boolean,
): Promise<Lease> {
  const r = registryOf(model);
  const key = creator.id;
  let entry = r.entries.get(key);
  if (!entry)
    r.entries.set(
      key,
      (entry = new Entry((e) => {
        if (r.whenIdle) void removeNow(r, e);
      })),
    );
  await entry.acquire(exclusive);
  const e = entry;
  let released = false;
  return {
    get resource() {
      return e.resource;
    },
    async create(make) {
      if (e.resource) return e.resource;
      e.creating ??= make().then((made) => {
        e.resource = made;
        e.creating = undefined;
        return made;
      });
      return e.creating;
    },
    forget() {
      e.resource = undefined;
    },
    async clear() {
      const resource = e.resource;
      e.resource = undefined;
      if (resource && r.remove) await r.remove(resource).catch(() => undefined);
    },
    rename(value) {
      if (e.resource) e.resource.path = { ...e.resource.path, [e.resource.param]: value };
    },
    release() {
      if (released) return;
      released = true;
      e.releaseOne(exclusive);
    },
  };
}

/** Deletes it with the resource held alone: no create of the same name meets the delete. */
async function removeNow(r: Registry, e: Entry): Promise<void> {
  if (!e.resource || !r.remove) return;
  await e.acquire(true);
  const resource = e.resource;
  e.resource = undefined;
  try {
    if (resource) await r.remove(resource).catch(() => undefined);
  } finally {
    e.releaseOne(true);
  }
}

/** At the end of the worker's run: deletes every resource the suite created and still holds. */
export async function releaseHeld(model: ServiceModel): Promise<void> {
  const r = registries.get(model);
  if (!r) return;
  for (const e of r.entries.values()) await removeNow(r, e);
}
