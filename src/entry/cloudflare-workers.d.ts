/** The part of the `cloudflare:workers` module this project uses (the runtime provides it). */
declare module 'cloudflare:workers' {
  export abstract class DurableObject<Env = unknown> {
    // biome-ignore lint/suspicious/noExplicitAny: DurableObjectState is the runtime's; the entry types what it uses.
    protected readonly ctx: any;
    protected readonly env: Env;
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    constructor(ctx: any, env: Env);
    fetch?(request: Request): Promise<Response>;
    alarm?(): Promise<void>;
  }
}
