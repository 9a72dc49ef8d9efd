/**
 * The path the scaffold tests add, chosen so that it is not in the description yet: the README's
 * own example adds /weather/forecast to the real spec, and the tests (which scaffold into a copy
 * of it) must stay green after that, or after any other scaffold.
 */
import { toFileStem, toIdentifier } from '../../model/identifiers.ts';

export interface FreePath {
  /** The free last segment: `forecast`, else `forecast2`, `forecast3`, ... */
  segment: string;
  /** `/weather/<segment>` */
  path: string;
  /** The operation id scaffold gives a GET there (`getWeatherForecast`). */
  id: string;
  /** Its handler file stem (`get-weather-forecast`). */
  stem: string;
}

export function freePath(specText: string): FreePath {
  for (let n = 1; ; n++) {
    const segment = n === 1 ? 'forecast' : `forecast${n}`;
    // A path key of the YAML (`  /weather/forecast:` or one below it, `/weather/forecast/...:`).
    if (new RegExp(`^\\s*['"]?/weather/${segment}(/[^:]*)?['"]?:`, 'm').test(specText)) continue;
    const id = toIdentifier(`get /weather/${segment}`, 'operation');
    return { segment, path: `/weather/${segment}`, id, stem: toFileStem(id, 'operation') };
  }
}
