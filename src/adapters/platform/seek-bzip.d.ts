/** The parts of seek-bzip 2.0.0 (no types of its own) that tar-decompress.ts drives block by block. */
declare module 'seek-bzip' {
  class Stream {
    readByte(): number;
    read(buffer: Uint8Array, offset: number, length: number): number;
    writeByte(byte: number): void;
  }
  class Bunzip {
    constructor(input: Stream, output: Stream);
    static Stream: typeof Stream;
    streamCRC: number;
    reader: { read(bits: number): number };
    _init_block(): boolean;
    _read_bunzip(): number;
    _start_bunzip(input: Stream, output: Stream): void;
  }
  export default Bunzip;
}
