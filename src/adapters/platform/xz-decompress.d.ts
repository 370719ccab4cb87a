/** xz-decompress ships a UMD bundle: under Node's ESM loader it is one default export. */
declare module 'xz-decompress' {
  const xz: { XzReadableStream: new (compressed: ReadableStream<Uint8Array>) => ReadableStream<Uint8Array> };
  export default xz;
}
