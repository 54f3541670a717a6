/**
 * The piscina task of the SLA worker (DESIGN §9): the interval maths for a chunk of CIs. The
 * problems arrive packed in a Float64Array (transferred, not copied) and are read in place, with
 * no object per problem; only the figures and CI rows go back. The event rows of the export are
 * built from the stored problems instead.
 */
import { packedCiFigures } from '../../pipelines/sla/ci-figures.js';
import { type CiFiguresOutcome, calculateCiFigures, type SingleTemplateContext } from '../../pipelines/sla/single-template.js';
import type { SlaCiMeta } from '../../pipelines/sla/sla.types.js';

export interface PackedChunk {
  context: SingleTemplateContext;
  cis: SlaCiMeta[];
  /** The problems of cis[i] are problems[offsets[i] .. offsets[i+1]) (in packed problems, PACKED_PROBLEM_FIELDS numbers each). */
  offsets: Int32Array;
  problems: Float64Array;
}

export default function calculateChunk(chunk: PackedChunk): CiFiguresOutcome[] {
  const { offsets, problems } = chunk;
  return calculateCiFigures({ ...chunk.context, cis: chunk.cis }, (context, maintenance, i) => packedCiFigures(context, maintenance, problems, offsets[i]!, offsets[i + 1]!));
}
