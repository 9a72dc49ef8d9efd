/**
 * Multipart bodies from plain values: files from a Blob (or File), a Buffer / Uint8Array, or a
 * path on disk (under Node: read lazily by file-path.ts); other fields as text.
 */
import { readFilePath } from './file-path.ts';

/** A file to upload: a Blob/File, bytes, a path, or any of them with an explicit name and type. */
export type FileInput =
  | Blob
  | Uint8Array
  | ArrayBuffer
  | { path: string; filename?: string; contentType?: string }
  | { data: Blob | Uint8Array | ArrayBuffer; filename: string; contentType?: string };

/** A value of a multipart field that is not a file: sent as text (objects as JSON). */
export type FormValue = string | number | boolean | object;

/** Reads a file from disk for upload (shorthand for `{ path }`). */
export function fileFromPath(
  filePath: string,
  options: { filename?: string; contentType?: string } = {},
): FileInput {
  return { path: filePath, ...options };
}

async function toBlob(input: FileInput, field: string): Promise<{ blob: Blob; filename: string }> {
  if (input instanceof Blob) {
    const name = (input as Blob & { name?: unknown }).name;
    return { blob: input, filename: typeof name === 'string' && name ? name : field };
  }
  if (input instanceof Uint8Array || input instanceof ArrayBuffer)
    return { blob: new Blob([input as BlobPart]), filename: field };
  if ('path' in input) {
    const { blob, filename } = await readFilePath(input.path, input.contentType);
    return { blob, filename: input.filename ?? filename };
  }
  const blob =
    input.data instanceof Blob
      ? input.data
      : new Blob([input.data as BlobPart], input.contentType ? { type: input.contentType } : {});
  return {
    blob:
      input.contentType && blob.type !== input.contentType
        ? blob.slice(0, blob.size, input.contentType)
        : blob,
    filename: input.filename,
  };
}

/** Bytes are files wherever they appear; `{ path }` objects only in declared file fields. */
function isBytes(v: unknown): v is Blob | Uint8Array | ArrayBuffer {
  return v instanceof Blob || v instanceof Uint8Array || v instanceof ArrayBuffer;
}

/** Builds the FormData of a multipart body; `fileFields` come from the model (op.body.fileFields). */
export async function toFormData(body: unknown, fileFields: string[]): Promise<FormData> {
  if (body instanceof FormData) return body;
  const form = new FormData();
  if (typeof body !== 'object' || body === null) return form;
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (fileFields.includes(name) || isBytes(v)) {
        if (typeof v === 'string') {
          form.append(name, v);
          continue;
        }
        const { blob, filename } = await toBlob(v as FileInput, name);
        form.append(name, blob, filename);
      } else {
        form.append(name, typeof v === 'object' ? JSON.stringify(v) : String(v));
      }
    }
  }
  return form;
}
