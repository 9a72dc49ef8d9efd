/**
 * The one sampler: JSON Schema -> fast-check Arbitrary (`arbitraryOf`), and deterministic,
 * validated draws from it (`draw`, `sample`). The mock's answers, the contract suite's requests
 * and property-based fuzzing all take their values from here.
 */
export { arbitraryOf, DEFAULTS, type ArbitraryOptions } from './arbitrary.ts';
export { draw, hashText, sample, type Draw, type DrawOptions } from './draw.ts';
export { effective, jsonType, objectShape, typesOf, type Effective } from './effective.ts';
export { integerBounds, patternRegExp } from './scalars.ts';
