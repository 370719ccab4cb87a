// Stylesheets imported from TypeScript are bundled by esbuild into the entry's CSS file.
declare module '*.css';
declare const __APP_VERSION__: string;
