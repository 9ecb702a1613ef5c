// @ts-nocheck
import type { MemoryResult } from '../../memory/memory.js';
import { kib, table } from '../format.js';

/** Section 4: the heap over many records, and over distinct scopes up to and past the bound. */
export function memorySection(memory: MemoryResult): string[] {
  const m = memory.records;
  const s = memory.scopes;
  const h = memory.scopesWithHistograms;
  return [
    '',
    '### 4. Memory (heap used and ArrayBuffers after forced GC, fresh process)',
    '',
    table(
      ['scenario', 'in use before', 'in use after', 'growth'],
      [
        [
          `${m.records.toLocaleString('en-US')} records on ${m.handles} held handles`,
          kib(m.heapBeforeBytes),
          kib(m.heapAfterBytes),
          kib(m.growthBytes),
        ],
        [
          `first ${s.maxScopes.toLocaleString('en-US')} distinct scopes (up to maxScopes)`,
          kib(s.heapEmptyBytes),
          kib(s.heapAtBoundBytes),
          kib(s.growthToBoundBytes),
        ],
        [
          `${s.maxScopes.toLocaleString('en-US')} → ${s.scopeRequests.toLocaleString('en-US')} distinct scopes (past the bound)`,
          kib(s.heapAtBoundBytes),
          kib(s.heapAfterBytes),
          kib(s.growthPastBoundBytes),
        ],
        [
          `first ${h.maxScopes.toLocaleString('en-US')} distinct scopes, each with its latency histogram`,
          kib(h.heapEmptyBytes),
          kib(h.heapAtBoundBytes),
          kib(h.growthToBoundBytes),
        ],
        [
          `${h.maxScopes.toLocaleString('en-US')} → ${h.scopeRequests.toLocaleString('en-US')} distinct scopes with histograms (past the bound)`,
          kib(h.heapAtBoundBytes),
          kib(h.heapAfterBytes),
          kib(h.growthPastBoundBytes),
        ],
      ],
    ),
  ];
}
