/**
 * Jupyter Server 1.23.3 (Debian's python3-jupyter-server, Python on Tornado) for the field panel,
 * started as test/field/tornado.ts says. Its description is the one it serves at GET
 * /api/spec.yaml, byte-identical to the packaged services/api/api.yaml.
 */
import type { FieldServer } from './server.ts';
import { pythonOrFail, startTornado, type Flavour } from './tornado.ts';

export const JUPYTER: Flavour = {
  name: 'jupyter',
  label: 'Jupyter Server',
  module: 'jupyter_server',
  app: 'ServerApp',
  rootFlag: 'root_dir',
  extraArgs: [],
  runtimePrefix: 'jpserver',
  version: '1.23.3',
  // JUPYTER_PYTHON, even a wrong one: how a missing server is simulated.
  python: process.env.JUPYTER_PYTHON ?? '/usr/bin/python3',
  packages: 'python3-jupyter-server and python3-ipykernel',
  inUse: /already in use|Address already in use/i,
};

export const jupyterPythonOrFail = (): string | undefined => pythonOrFail(JUPYTER);
export const startJupyter = (): Promise<FieldServer> => startTornado(JUPYTER);
