// @ts-nocheck
function stryNS_9fa48() {
  var g = typeof globalThis === 'object' && globalThis && globalThis.Math === Math && globalThis || new Function("return this")();
  var ns = g.__stryker__ || (g.__stryker__ = {});
  if (ns.activeMutant === undefined && g.process && g.process.env && g.process.env.__STRYKER_ACTIVE_MUTANT__) {
    ns.activeMutant = g.process.env.__STRYKER_ACTIVE_MUTANT__;
  }
  function retrieveNS() {
    return ns;
  }
  stryNS_9fa48 = retrieveNS;
  return retrieveNS();
}
stryNS_9fa48();
function stryCov_9fa48() {
  var ns = stryNS_9fa48();
  var cov = ns.mutantCoverage || (ns.mutantCoverage = {
    static: {},
    perTest: {}
  });
  function cover() {
    var c = cov.static;
    if (ns.currentTestId) {
      c = cov.perTest[ns.currentTestId] = cov.perTest[ns.currentTestId] || {};
    }
    var a = arguments;
    for (var i = 0; i < a.length; i++) {
      c[a[i]] = (c[a[i]] || 0) + 1;
    }
  }
  stryCov_9fa48 = cover;
  cover.apply(null, arguments);
}
function stryMutAct_9fa48(id) {
  var ns = stryNS_9fa48();
  function isActive(id) {
    if (ns.activeMutant === id) {
      if (ns.hitCount !== void 0 && ++ns.hitCount > ns.hitLimit) {
        throw new Error('Stryker: Hit count limit reached (' + ns.hitCount + ')');
      }
      return true;
    }
    return false;
  }
  stryMutAct_9fa48 = isActive;
  return isActive(id);
}
import type { Diagnostics } from '../diagnostics/diagnostics.js';
import { noopRun } from '../doubles/noop-stats.js';
import type { ExplicitBuckets } from '../histogram/explicit-buckets.js';
import { labelKey, mergeLabels, type ResolvedLabels, ROOT_LABELS, type ScopeLabels } from '../labels.js';
import type { Family } from '../naming/naming-types.js';
import { OverflowHandle } from '../record/overflow-handle.js';
import type { Run } from '../run.js';
import type { Stats } from '../stats.js';
import { H_MAX, H_MIN, OVERFLOW_SLOT, type RegionLayout } from './region-layout.js';
import { type SharedOwner, SharedSeriesHandle } from './shared-series-handle.js';

/** The views of one place's shared memory. */
export interface Region {
  readonly layout: RegionLayout;
  readonly int32: Int32Array;
  readonly numbers: Float64Array;
  readonly bytes: Uint8Array;
}
const encoder = new TextEncoder();

/**
 * One family's handles in a worker thread: the memoized handles, each on a slot of the place, at most `maxScopes`
 * of them with the overflow slot; past them, or when the labels no longer fit the label heap, an overflow handle.
 * A new slot is written (its labels, its histogram's min and max), then published by one Atomics.store of the slot
 * count, which the main thread reads with Atomics.load before it reads the slot: no message per scope. A place
 * taken over from a worker that closed or is gone keeps its slots, and this family takes them up as they are.
 */
export class SharedFamily implements SharedOwner {
  private readonly handles = new Map<string, SharedSeriesHandle>();
  private readonly overflow: SharedSeriesHandle;
  /** Slots in use, the overflow slot included. */
  private slots: number;
  /** After `close()`: the place may be another worker's, so nothing more is written into it. */
  private closed = stryMutAct_9fa48("296") ? true : (stryCov_9fa48("296"), false);
  readonly root: Stats;
  constructor(private readonly region: Region, private readonly family: number, private readonly name: Family, private readonly diagnostics: Diagnostics, private readonly buckets: ExplicitBuckets | undefined) {
    if (stryMutAct_9fa48("297")) {
      {}
    } else {
      stryCov_9fa48("297");
      const {
        int32,
        layout
      } = region;
      this.slots = Atomics.load(int32, layout.slotCountAt(family));
      if (stryMutAct_9fa48("300") ? this.slots !== 0 : stryMutAct_9fa48("299") ? false : stryMutAct_9fa48("298") ? true : (stryCov_9fa48("298", "299", "300"), this.slots === 0)) {
        if (stryMutAct_9fa48("301")) {
          {}
        } else {
          stryCov_9fa48("301");
          if (stryMutAct_9fa48("302")) {
            ;
          } else {
            stryCov_9fa48("302");
            this.initialise(OVERFLOW_SLOT);
          }
          this.slots = 1;
          if (stryMutAct_9fa48("303")) {
            ;
          } else {
            stryCov_9fa48("303");
            Atomics.store(int32, layout.slotCountAt(family), 1);
          }
        }
      }
      this.overflow = this.handleAt(OVERFLOW_SLOT, ROOT_LABELS);
      for (let slot = 1; stryMutAct_9fa48("306") ? slot >= this.slots : stryMutAct_9fa48("305") ? slot <= this.slots : stryMutAct_9fa48("304") ? false : (stryCov_9fa48("304", "305", "306"), slot < this.slots); stryMutAct_9fa48("307") ? slot-- : (stryCov_9fa48("307"), slot++)) {
        if (stryMutAct_9fa48("308")) {
          {}
        } else {
          stryCov_9fa48("308");
          const labels = this.labelsAt(slot);
          if (stryMutAct_9fa48("309")) {
            ;
          } else {
            stryCov_9fa48("309");
            this.handles.set(labelKey(labels), this.handleAt(slot, labels));
          }
        }
      }
      this.root = this.scope(ROOT_LABELS, undefined);
    }
  }

  /** Returns the memoized handle for `given` on top of `parent`, or an overflow handle past the bound. */
  scope(parent: ResolvedLabels, given: ScopeLabels | undefined): Stats {
    if (stryMutAct_9fa48("310")) {
      {}
    } else {
      stryCov_9fa48("310");
      const labels = mergeLabels(parent, given, this.diagnostics);
      const key = labelKey(labels);
      const existing = this.handles.get(key);
      if (stryMutAct_9fa48("313") ? existing === undefined : stryMutAct_9fa48("312") ? false : stryMutAct_9fa48("311") ? true : (stryCov_9fa48("311", "312", "313"), existing !== undefined)) return existing;
      const slot = this.slots;
      if (stryMutAct_9fa48("316") ? (this.closed || slot >= this.region.layout.scopes) && !this.writeLabels(slot, labels) : stryMutAct_9fa48("315") ? false : stryMutAct_9fa48("314") ? true : (stryCov_9fa48("314", "315", "316"), (stryMutAct_9fa48("318") ? this.closed && slot >= this.region.layout.scopes : stryMutAct_9fa48("317") ? false : (stryCov_9fa48("317", "318"), this.closed || (stryMutAct_9fa48("321") ? slot < this.region.layout.scopes : stryMutAct_9fa48("320") ? slot > this.region.layout.scopes : stryMutAct_9fa48("319") ? false : (stryCov_9fa48("319", "320", "321"), slot >= this.region.layout.scopes)))) || (stryMutAct_9fa48("322") ? this.writeLabels(slot, labels) : (stryCov_9fa48("322"), !this.writeLabels(slot, labels))))) {
        if (stryMutAct_9fa48("323")) {
          {}
        } else {
          stryCov_9fa48("323");
          return new OverflowHandle(this, labels, this.overflow);
        }
      }
      if (stryMutAct_9fa48("324")) {
        ;
      } else {
        stryCov_9fa48("324");
        this.initialise(slot);
      }
      this.slots = stryMutAct_9fa48("325") ? slot - 1 : (stryCov_9fa48("325"), slot + 1);
      if (stryMutAct_9fa48("326")) {
        ;
      } else {
        stryCov_9fa48("326");
        Atomics.store(this.region.int32, this.region.layout.slotCountAt(this.family), this.slots);
      }
      const handle = this.handleAt(slot, labels);
      if (stryMutAct_9fa48("327")) {
        ;
      } else {
        stryCov_9fa48("327");
        this.handles.set(key, handle);
      }
      return handle;
    }
  }
  countInvalid(): void {
    if (stryMutAct_9fa48("328")) {
      {}
    } else {
      stryCov_9fa48("328");
      if (stryMutAct_9fa48("330") ? false : stryMutAct_9fa48("329") ? true : (stryCov_9fa48("329", "330"), this.closed)) return;
      const {
        numbers,
        layout
      } = this.region;
      const at = layout.invalidAt(this.family);
      numbers[at] = stryMutAct_9fa48("331") ? (numbers[at] as number) - 1 : (stryCov_9fa48("331"), (numbers[at] as number) + 1);
      if (stryMutAct_9fa48("332")) {
        ;
      } else {
        stryCov_9fa48("332");
        this.diagnostics.invalidMeasurement(this.name);
      }
    }
  }

  /** Runs are the main thread's: see docs/workers.md. */
  startRun(): Run {
    if (stryMutAct_9fa48("333")) {
      {}
    } else {
      stryCov_9fa48("333");
      if (stryMutAct_9fa48("334")) {
        ;
      } else {
        stryCov_9fa48("334");
        this.diagnostics.runStartedInWorker();
      }
      return noopRun;
    }
  }

  /** Points every handle at private memory: what is recorded after `close()` goes nowhere. */
  detach(): void {
    if (stryMutAct_9fa48("335")) {
      {}
    } else {
      stryCov_9fa48("335");
      this.closed = stryMutAct_9fa48("336") ? false : (stryCov_9fa48("336"), true);
      const numbers = new Float64Array(this.region.numbers.length);
      const seqs = new Int32Array(this.region.int32.length);
      for (const handle of stryMutAct_9fa48("337") ? [] : (stryCov_9fa48("337"), [this.overflow, ...this.handles.values()])) {
        if (stryMutAct_9fa48("338")) {
          {}
        } else {
          stryCov_9fa48("338");
          handle.numbers = numbers;
          handle.seqs = seqs;
        }
      }
    }
  }
  private handleAt(slot: number, labels: ResolvedLabels): SharedSeriesHandle {
    if (stryMutAct_9fa48("339")) {
      {}
    } else {
      stryCov_9fa48("339");
      const {
        layout,
        numbers,
        int32
      } = this.region;
      return new SharedSeriesHandle(this, labels, numbers, layout.slotAt(this.family, slot), int32, layout.seqAt(this.family, slot), this.buckets, layout.explicitAt);
    }
  }

  /** A histogram's min and max start at the infinities, so that the first duration sets both. */
  private initialise(slot: number): void {
    if (stryMutAct_9fa48("340")) {
      {}
    } else {
      stryCov_9fa48("340");
      if (stryMutAct_9fa48("343") ? false : stryMutAct_9fa48("342") ? true : stryMutAct_9fa48("341") ? this.region.layout.histograms : (stryCov_9fa48("341", "342", "343"), !this.region.layout.histograms)) return;
      const at = this.region.layout.slotAt(this.family, slot);
      this.region.numbers[stryMutAct_9fa48("344") ? at - H_MIN : (stryCov_9fa48("344"), at + H_MIN)] = Number.POSITIVE_INFINITY;
      this.region.numbers[stryMutAct_9fa48("345") ? at - H_MAX : (stryCov_9fa48("345"), at + H_MAX)] = Number.NEGATIVE_INFINITY;
    }
  }

  /** Writes a slot's labels at the end of the label heap; false when they do not fit. */
  private writeLabels(slot: number, labels: ResolvedLabels): boolean {
    if (stryMutAct_9fa48("346")) {
      {}
    } else {
      stryCov_9fa48("346");
      const {
        layout,
        int32,
        bytes
      } = this.region;
      const end = Atomics.load(int32, layout.labelEndAt);
      const text = JSON.stringify(stryMutAct_9fa48("347") ? [] : (stryCov_9fa48("347"), [labels.component, labels.implementation, labels.operation]));
      const room = bytes.subarray(stryMutAct_9fa48("348") ? layout.labelStart - end : (stryCov_9fa48("348"), layout.labelStart + end), stryMutAct_9fa48("349") ? layout.labelStart - layout.labelBytes : (stryCov_9fa48("349"), layout.labelStart + layout.labelBytes));
      const {
        read,
        written
      } = encoder.encodeInto(text, room);
      if (stryMutAct_9fa48("352") ? read === text.length : stryMutAct_9fa48("351") ? false : stryMutAct_9fa48("350") ? true : (stryCov_9fa48("350", "351", "352"), read !== text.length)) return stryMutAct_9fa48("353") ? true : (stryCov_9fa48("353"), false);
      const labelAt = layout.labelAt(this.family, slot);
      int32[labelAt] = end;
      int32[stryMutAct_9fa48("354") ? labelAt - 1 : (stryCov_9fa48("354"), labelAt + 1)] = written;
      Atomics.store(int32, layout.labelEndAt, stryMutAct_9fa48("356") ? end - written : (stryCov_9fa48("356"), end + written));
      return stryMutAct_9fa48("357") ? false : (stryCov_9fa48("357"), true);
    }
  }
  private labelsAt(slot: number): ResolvedLabels {
    if (stryMutAct_9fa48("358")) {
      {}
    } else {
      stryCov_9fa48("358");
      return stryMutAct_9fa48("359") ? readLabels(this.region, this.family, slot) && ROOT_LABELS : (stryCov_9fa48("359"), readLabels(this.region, this.family, slot) ?? ROOT_LABELS);
    }
  }
}
const decoder = new TextDecoder();

/** The labels of a published slot; undefined for the overflow slot (or labels that do not parse). */
export function readLabels(region: Region, family: number, slot: number): ResolvedLabels | undefined {
  if (stryMutAct_9fa48("360")) {
    {}
  } else {
    stryCov_9fa48("360");
    const {
      layout,
      int32,
      bytes
    } = region;
    const labelAt = layout.labelAt(family, slot);
    const length = int32[labelAt + 1] as number;
    if (stryMutAct_9fa48("363") ? length !== 0 : stryMutAct_9fa48("362") ? false : stryMutAct_9fa48("361") ? true : (stryCov_9fa48("361", "362", "363"), length === 0)) return undefined;
    const start = stryMutAct_9fa48("364") ? layout.labelStart - (int32[labelAt] as number) : (stryCov_9fa48("364"), layout.labelStart + (int32[labelAt] as number));
    let parsed: unknown;
    try {
      if (stryMutAct_9fa48("365")) {
        {}
      } else {
        stryCov_9fa48("365");
        // slice(): TextDecoder does not read shared memory.
        parsed = JSON.parse(decoder.decode(stryMutAct_9fa48("366") ? bytes : (stryCov_9fa48("366"), bytes.slice(start, stryMutAct_9fa48("367") ? start - length : (stryCov_9fa48("367"), start + length)))));
      }
    } catch {
      if (stryMutAct_9fa48("368")) {
        {}
      } else {
        stryCov_9fa48("368");
        return undefined;
      }
    }
    if (stryMutAct_9fa48("371") ? (!Array.isArray(parsed) || parsed.length !== 3) && !parsed.every(label => typeof label === 'string') : stryMutAct_9fa48("370") ? false : stryMutAct_9fa48("369") ? true : (stryCov_9fa48("369", "370", "371"), (stryMutAct_9fa48("373") ? !Array.isArray(parsed) && parsed.length !== 3 : stryMutAct_9fa48("372") ? false : (stryCov_9fa48("372", "373"), (stryMutAct_9fa48("374") ? Array.isArray(parsed) : (stryCov_9fa48("374"), !Array.isArray(parsed))) || (stryMutAct_9fa48("376") ? parsed.length === 3 : stryMutAct_9fa48("375") ? false : (stryCov_9fa48("375", "376"), parsed.length !== 3)))) || (stryMutAct_9fa48("377") ? parsed.every(label => typeof label === 'string') : (stryCov_9fa48("377"), !(stryMutAct_9fa48("378") ? parsed.some(label => typeof label === 'string') : (stryCov_9fa48("378"), parsed.every(stryMutAct_9fa48("379") ? () => undefined : (stryCov_9fa48("379"), label => stryMutAct_9fa48("382") ? typeof label !== 'string' : stryMutAct_9fa48("381") ? false : stryMutAct_9fa48("380") ? true : (stryCov_9fa48("380", "381", "382"), typeof label === (stryMutAct_9fa48("383") ? "" : (stryCov_9fa48("383"), 'string'))))))))))) {
      if (stryMutAct_9fa48("384")) {
        {}
      } else {
        stryCov_9fa48("384");
        return undefined;
      }
    }
    const [component, implementation, operation] = parsed as [string, string, string];
    return stryMutAct_9fa48("385") ? {} : (stryCov_9fa48("385"), {
      component,
      implementation,
      operation
    });
  }
}