import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Imports read one way (issue 8): modules and platform below, the inbound pipeline above them,
 * automations above the pipeline, and the channels beside it all, talking to the rest only through
 * the interfaces of channels/channel.ts that runtime.ts wires.
 */
const src = fileURLToPath(new URL('../src', import.meta.url));

async function importsOf(dir: string): Promise<{ file: string; target: string }[]> {
  const found: { file: string; target: string }[] = [];
  for (const entry of await readdir(path.join(src, dir), { recursive: true })) {
    if (!entry.endsWith('.ts') || entry.endsWith('.test.ts')) continue;
    const file = path.join(dir, entry);
    const text = await readFile(path.join(src, file), 'utf8');
    for (const [, target] of text.matchAll(/from '(\.[^']+)'/g)) {
      found.push({ file, target: path.relative(src, path.resolve(path.dirname(path.join(src, file)), target)) });
    }
  }
  return found;
}

const under = (layer: string) => (i: { target: string }) => i.target.startsWith(`${layer}/`);

describe('layers', () => {
  it('channels use no module code (their tables only reference the connection table)', async () => {
    const offending = (await importsOf('channels'))
      .filter(under('modules'))
      .filter((i) => !(i.file.endsWith('.schema.ts') && i.target.endsWith('.schema.js')));
    expect(offending).toEqual([]);
  });

  it('the inbound pipeline does not reach up into automations or channels’ providers', async () => {
    const imports = await importsOf('inbound');
    expect(imports.filter(under('automations'))).toEqual([]);
    expect(imports.filter((i) => i.target.startsWith('channels/') && i.target !== 'channels/channel.js')).toEqual([]);
  });

  it('module rules and platform never import the pipeline, the automations or the channels’ providers', async () => {
    // Routes are the HTTP edge: like runtime.ts they compose (a transition's automations, a provider's sealing).
    const imports = [...(await importsOf('modules')), ...(await importsOf('platform'))].filter(
      (i) => !i.file.endsWith('.routes.ts'),
    );
    const up = imports.filter(
      (i) =>
        under('inbound')(i) ||
        under('automations')(i) ||
        (i.target.startsWith('channels/') && i.target !== 'channels/channel.js' && i.target !== 'channels/manager.js'),
    );
    expect(up).toEqual([]);
  });
});
