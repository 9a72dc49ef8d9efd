/** The browser's stand-in for file-path.ts: there is no file system to read a path from. */
export async function readFilePath(
  filePath: string,
  _contentType: string | undefined,
): Promise<{ blob: Blob; filename: string }> {
  throw new Error(
    `cannot read ${JSON.stringify(filePath)}: file paths can only be uploaded under Node; pass a Blob or File`,
  );
}
