/** The part of the `cloudflare:workers` module this project uses (the runtime provides it). */
declare module 'cloudflare:workers' {
  export abstract class DurableObject<Env = unknown> {
    protected readonly ctx: any;
    protected readonly env: Env;
    constructor(ctx: any, env: Env);
    fetch?(request: Request): Promise<Response>;
    alarm?(): Promise<void>;
  }
}
