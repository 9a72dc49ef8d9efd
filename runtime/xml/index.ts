/**
 * `dataapi/runtime/xml`: XML bodies read back, for the server (requests) and the contract suite
 * (answers). A folder of its own so that the suite's workers load it without the server's
 * Fastify and its plugins.
 */
export { xmlFault, xmlValue } from './read.ts';
