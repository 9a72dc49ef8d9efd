/**
 * Reading an upload from a path on disk: Node only. The packed client swaps this module for
 * file-path-browser.ts outside Node (package.json `imports` conditions), so a browser bundle
 * carries no Node built-ins.
 */
import { openAsBlob } from 'node:fs';
import path from 'node:path';

export async function readFilePath(
  filePath: string,
  contentType: string | undefined,
): Promise<{ blob: Blob; filename: string }> {
  const blob = await openAsBlob(filePath, contentType ? { type: contentType } : {});
  return { blob, filename: path.basename(filePath) };
}
