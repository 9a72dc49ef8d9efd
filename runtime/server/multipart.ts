/**
 * Multipart bodies (@fastify/multipart): every part is read within the configured limits; file
 * parts are kept in memory with their client-supplied name as data only (never used as a path).
 * A broken form is a 400, an oversized one a 413; neither is ever a 500.
 */
import type { FastifyRequest } from 'fastify';
import { decodedBody } from './content-coding.ts';
import { HttpError } from './errors.ts';
import { jsonOrText } from './text-json.ts';

export interface UploadedFile {
  /** The form field the file came in. */
  field: string;
  /** The name the client gave; untrusted text, never a filesystem path. */
  filename: string;
  mimetype: string;
  size: number;
  data: Buffer;
}

export interface MultipartForm {
  fields: Record<string, string | string[]>;
  files: UploadedFile[];
}

function add(target: Record<string, string | string[]>, name: string, value: string): void {
  const prev = Object.hasOwn(target, name) ? target[name] : undefined;
  if (prev === undefined) target[name] = value;
  else if (Array.isArray(prev)) prev.push(value);
  else target[name] = [prev, value];
}

export async function readMultipart(request: FastifyRequest): Promise<MultipartForm> {
  // A null prototype: field names such as __proto__ stay plain data.
  const fields = Object.create(null) as Record<string, string | string[]>;
  const files: UploadedFile[] = [];
  try {
    for await (const part of partsOf(request)) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        files.push({
          field: part.fieldname,
          filename: part.filename,
          mimetype: part.mimetype,
          size: data.length,
          data,
        });
      } else {
        add(
          fields,
          part.fieldname,
          typeof part.value === 'string' ? part.value : String(part.value),
        );
      }
    }
  } catch (err) {
    const status = (err as { statusCode?: number }).statusCode;
    if (status === 413) throw new HttpError(413, (err as Error).message);
    throw new HttpError(400, `Malformed multipart body: ${(err as Error).message}`, {
      outcome: 'invalid_parameters',
    });
  }
  return { fields, files };
}

/**
 * The parts of the body: @fastify/multipart reads `request.raw`, so a body in a content coding
 * the operation declares is read from its decoded stream instead (the raw bytes are coded; left
 * unread, the decoder's buffer filled and the request waited).
 */
function partsOf(request: FastifyRequest): ReturnType<FastifyRequest['parts']> {
  const decoded = decodedBody(request);
  if (!decoded) return request.parts();
  const raw = Object.assign(decoded, { headers: request.raw.headers });
  const view = Object.create(request, { raw: { value: raw } }) as FastifyRequest;
  return view.parts();
}

/**
 * The form as a JSON value for schema validation: file fields carry the file names (a list when
 * the schema property is an array or several files came), text fields their text, JSON fields
 * (objects) their parsed value.
 */
export function formForValidation(
  form: MultipartForm,
  fileFields: string[],
  arrayFields: Set<string>,
  jsonFields: Set<string> = new Set(),
): Record<string, unknown> {
  const value = Object.assign(Object.create(null), form.fields) as Record<string, unknown>;
  // Objects (and lists of them) travel as JSON text; one that does not parse stays text and fails.
  for (const field of jsonFields) {
    const text = value[field];
    if (text === undefined) continue;
    const read = Array.isArray(text) ? text.map(jsonOrText) : jsonOrText(text);
    // A list of objects sent as one part per item: one item is one part, its object the list's
    // only item (Rocket.Chat's `permissions`; the object was dropped). A part holding a whole
    // JSON list is that list.
    value[field] = arrayFields.has(field) && !Array.isArray(read) ? [read] : read;
  }
  for (const field of new Set([...fileFields, ...form.files.map((f) => f.field)])) {
    const names = form.files.filter((f) => f.field === field).map((f) => f.filename || 'file');
    if (names.length === 0) continue;
    value[field] = arrayFields.has(field) || names.length > 1 ? names : names[0];
  }
  return value;
}
