// Minifies the package's JS in place (esbuild: whitespace, syntax and local names; class and
// function names kept, since errors and devtools show them), each file beside a source map that
// carries the original text. What a browser downloads without a bundler is then what a bundler
// would have made of it; a bundler's own minify finds little left to do.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { transformSync } from 'esbuild';

const pkg = new URL('../pkg/', import.meta.url);
for (const dir of ['', 'a2a/', 'server/']) {
  for (const name of readdirSync(new URL(dir, pkg)).filter((n) => n.endsWith('.js'))) {
    const file = new URL(dir + name, pkg);
    const { code, map } = transformSync(readFileSync(file, 'utf8'), {
      minify: true,
      keepNames: true,
      sourcemap: 'external',
      sourcefile: `source/${name}`,
    });
    writeFileSync(file, `${code}//# sourceMappingURL=${name}.map\n`);
    writeFileSync(new URL(`${dir + name}.map`, pkg), map);
  }
}
