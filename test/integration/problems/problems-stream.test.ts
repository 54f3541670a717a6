/** Issue #30: the problems stream cases (problems-stream.cases.ts) on the embedded platform. */
import t from 'tap';
import { problemsStreamCases } from './problems-stream.cases.js';
import { ProblemsKit } from './problems-kit.js';

const k = new ProblemsKit();
t.before(() => k.start());
t.teardown(() => k.stop());
problemsStreamCases(t, k);
