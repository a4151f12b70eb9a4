// Writes the layer graph of src/ (scripts/layer-graph.mjs) into docs/architecture.md, between its
// markers. Run it after adding a folder or an import between layers; test/unit/layers.test.ts
// fails until then.

import { readFileSync, writeFileSync } from 'node:fs';
import { cruiseSource, layerGraph, withGraph } from './layer-graph.mjs';

const url = new URL('../docs/architecture.md', import.meta.url);
writeFileSync(url, withGraph(readFileSync(url, 'utf8'), layerGraph(cruiseSource())));
console.log('docs/architecture.md: layer graph written');
