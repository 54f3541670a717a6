/**
 * The piscina task of the SLA worker (DESIGN §9): the interval maths for a chunk of CIs. The
 * problems arrive packed in a Float64Array (transferred, not copied) and only the figures and
 * CI rows go back; the event rows of the export are built from the stored problems instead.
 */
import { calculateCis, type SingleTemplateContext } from '../../pipelines/sla/single-template.js';
import type { Interval, ProblemInput, SlaCiInput, SlaCiType, SlaFigures } from '../../pipelines/sla/sla.types.js';
import type { SlaCiRowModel } from '../../schemas/sla-export.schema.js';

/** Numbers per packed problem: start, end (NaN while open), priority, influence value, maxInfluence (0|1). */
export const PACKED_FIELDS = 5;

export interface PackedCi {
  id: number;
  name: string;
  type: SlaCiType;
  weight: number;
  maintenance: Interval[];
}

export interface PackedChunk {
  context: SingleTemplateContext;
  cis: PackedCi[];
  /** The problems of cis[i] are problems[offsets[i] .. offsets[i+1]) (in packed problems). */
  offsets: Int32Array;
  problems: Float64Array;
}

export interface CiFiguresOut {
  ciId: number;
  weight: number;
  figures: SlaFigures;
  ciRow: SlaCiRowModel;
}

const NO_TRIGGER = { id: 0, name: '' };

export function unpack(chunk: PackedChunk): SlaCiInput[] {
  const { cis, offsets, problems } = chunk;
  return cis.map((ci, i) => {
    const list: ProblemInput[] = [];
    for (let p = offsets[i]!; p < offsets[i + 1]!; p++) {
      const at = p * PACKED_FIELDS;
      const end = problems[at + 1]!;
      list.push({
        id: '',
        trigger: NO_TRIGGER,
        ciId: ci.id,
        start: problems[at]!,
        end: Number.isNaN(end) ? null : end,
        priority: problems[at + 2]! as ProblemInput['priority'],
        influence: { value: problems[at + 3]!, maxInfluence: problems[at + 4] === 1 },
        tags: [],
        incidents: [],
      });
    }
    return { ...ci, problems: list };
  });
}

export default function calculateChunk(chunk: PackedChunk): CiFiguresOut[] {
  const result = calculateCis({ ...chunk.context, cis: unpack(chunk) }, { events: false });
  return result.cis.map((o) => ({ ciId: o.ciId, weight: o.weight, figures: o.figures, ciRow: o.ciRow }));
}
