// esbuild's `file` loader turns an imported .wasm into its URL.
declare module '*.wasm' {
  const url: string;
  export default url;
}
