/**
 * The classic Jupyter Notebook server 6.4.12 (Debian's python3-notebook, Python on Tornado) for
 * the field panel: a different program from Jupyter Server (test/field/jupyter.ts), by the same
 * publisher, with its own handlers and its own copy of the REST description, started as
 * test/field/tornado.ts says. Its description is the one it serves at GET /api/spec.yaml
 * (the packaged notebook/services/api/api.yaml; its title tells it from Jupyter Server's).
 */
import type { FieldServer } from './server.ts';
import { pythonOrFail, startTornado, type Flavour } from './tornado.ts';

export const NOTEBOOK: Flavour = {
  name: 'notebook',
  label: 'Jupyter Notebook',
  module: 'notebook',
  app: 'NotebookApp',
  rootFlag: 'notebook_dir',
  extraArgs: ['--no-browser'],
  runtimePrefix: 'nbserver',
  version: '6.4.12',
  title: 'Jupyter Notebook API',
  // NOTEBOOK_PYTHON, even a wrong one: how a missing server is simulated.
  python: process.env.NOTEBOOK_PYTHON ?? '/usr/bin/python3',
  packages: 'python3-notebook (it brings python3-ipykernel)',
  inUse: /already in use|no available port/i,
};

export const notebookPythonOrFail = (): string | undefined => pythonOrFail(NOTEBOOK);
export const startNotebook = (): Promise<FieldServer> => startTornado(NOTEBOOK);
