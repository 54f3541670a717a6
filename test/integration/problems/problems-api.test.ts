/** Issue #30: the problems API cases (problems-api.cases.ts) on the embedded platform. */
import t from 'tap';
import { problemsApiCases } from './problems-api.cases.js';
import { ProblemsKit } from './problems-kit.js';

const k = new ProblemsKit();
t.before(() => k.start());
t.teardown(() => k.stop());
problemsApiCases(t, k);
