// Schemas that contain themselves outside an object, as openapi-typescript types them: a member of
// `components.schemas` whose type names itself through a union or an array
// (`v: string | components["schemas"]["v"][]`, corpus open-eo: process_argument_value) does not
// compile: a property's type is resolved eagerly, an indexed access in it too (TS2502). A type
// alias may recur through an array (TypeScript 3.7), so each member on such a cycle gets one,
// written at the end of the file, with the cycle's indexed accesses naming the aliases; the member
// names its alias. A cycle through no array or object (`anyOf: [self, ...]`) admits no finite
// type: that member is typed `unknown`, and its name is returned for a finding.

/**
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').Node[]} statements openapi-typescript's output, changed in place
 * @returns {string[]} the schemas typed `unknown`
 */
export function aliasRecursiveSchemas(ts, statements) {
  const members = schemaMembers(ts, statements);
  if (members.size === 0) return [];
  /** name -> [target, through an array?] edges resolved eagerly */
  const edges = new Map();
  for (const [name, member] of members) edges.set(name, eagerRefs(ts, member.type, members));
  const cyclic = onCycles(edges, () => true);
  if (cyclic.size === 0) return [];
  // Among the aliases, only an edge through an array is deferred.
  const bare = onCycles(edges, (throughArray) => !throughArray, cyclic);
  const taken = new Set(statements.map((s) => s.name?.text).filter(Boolean));
  const aliases = new Map();
  for (const name of members.keys()) {
    if (!cyclic.has(name) || bare.has(name)) continue;
    const base = `components_schemas_${name.replace(/[^A-Za-z0-9_$]/g, '_')}`;
    let alias = base;
    for (let n = 2; taken.has(alias); n++) alias = `${base}_${n}`;
    taken.add(alias);
    aliases.set(name, alias);
  }
  const f = ts.factory;
  const unknownType = f.createKeywordTypeNode(ts.SyntaxKind.UnknownKeyword);
  const renamed = (node) =>
    ts.visitEachChild(
      node,
      function visit(n) {
        const target = schemaRefName(ts, n);
        if (target !== undefined && aliases.has(target))
          return f.createTypeReferenceNode(aliases.get(target));
        if (target !== undefined && bare.has(target)) return unknownType;
        return ts.visitEachChild(n, visit, undefined);
      },
      undefined,
    );
  const declarations = [];
  for (const [name, alias] of aliases) {
    const member = members.get(name);
    const type = renamed(f.createParenthesizedType(member.type)).type;
    declarations.push(f.createTypeAliasDeclaration(undefined, alias, undefined, type));
    member.type = f.createTypeReferenceNode(alias);
  }
  for (const name of bare) members.get(name).type = unknownType;
  rebuild(ts, statements, members);
  statements.push(...declarations);
  return [...bare];
}

/** `components["schemas"]["X"]` -> X; undefined for any other node. */
function schemaRefName(ts, node) {
  if (!ts.isIndexedAccessTypeNode(node)) return undefined;
  const inner = node.objectType;
  if (!ts.isIndexedAccessTypeNode(inner)) return undefined;
  const root = inner.objectType;
  const isLit = (t, text) =>
    ts.isLiteralTypeNode(t) &&
    ts.isStringLiteral(t.literal) &&
    (text ?? t.literal.text) === t.literal.text;
  if (!ts.isTypeReferenceNode(root) || !ts.isIdentifier(root.typeName)) return undefined;
  if (root.typeName.text !== 'components' || !isLit(inner.indexType, 'schemas')) return undefined;
  return isLit(node.indexType) ? node.indexType.literal.text : undefined;
}

/** The members of `interface components { schemas: { ... } }`: name -> { type } (mutable copies). */
function schemaMembers(ts, statements) {
  const out = new Map();
  const components = statements.find(
    (s) => ts.isInterfaceDeclaration(s) && s.name.text === 'components',
  );
  const schemas = components?.members.find(
    (m) => ts.isPropertySignature(m) && m.name && memberName(ts, m) === 'schemas',
  );
  if (!schemas?.type || !ts.isTypeLiteralNode(schemas.type)) return out;
  for (const m of schemas.type.members) {
    const name = ts.isPropertySignature(m) && m.type ? memberName(ts, m) : undefined;
    if (name !== undefined) out.set(name, { node: m, type: m.type });
  }
  return out;
}

const memberName = (ts, m) =>
  ts.isIdentifier(m.name) || ts.isStringLiteral(m.name) ? m.name.text : undefined;

/** The schemas a type names where TypeScript resolves them at once (outside object types). */
function eagerRefs(ts, type, members) {
  const found = [];
  const visit = (node, throughArray) => {
    const target = schemaRefName(ts, node);
    if (target !== undefined) {
      if (members.has(target)) found.push([target, throughArray]);
      return;
    }
    if (ts.isUnionTypeNode(node) || ts.isIntersectionTypeNode(node))
      node.types.forEach((t) => visit(t, throughArray));
    else if (ts.isParenthesizedTypeNode(node) || ts.isTypeOperatorNode(node))
      visit(node.type, throughArray);
    else if (ts.isArrayTypeNode(node)) visit(node.elementType, true);
    else if (ts.isTupleTypeNode(node)) node.elements.forEach((t) => visit(t, true));
    // A generic's arguments (WithRequired<T, K>, Record<K, T>): resolved at once, no deferral.
    else if (ts.isTypeReferenceNode(node)) node.typeArguments?.forEach((t) => visit(t, false));
  };
  visit(type, false);
  return found;
}

/**
 * The names on a cycle of `edges` whose edges all pass `keep` (among `within` when given):
 * Tarjan's strongly connected components, a component counting when it has two members or a
 * kept edge to itself.
 */
function onCycles(edges, keep, within) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const out = new Set();
  let next = 0;
  const inScope = (n) => !within || within.has(n);
  const succ = (n) =>
    (edges.get(n) ?? []).filter(([t, a]) => inScope(t) && keep(a)).map(([t]) => t);
  const strong = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of succ(v)) {
      if (!index.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    for (let w; w !== v;) {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    }
    if (component.length > 1 || succ(v).includes(v)) component.forEach((n) => out.add(n));
  };
  for (const n of edges.keys()) if (inScope(n) && !index.has(n)) strong(n);
  return out;
}

/** Writes the changed member types back (the factory's nodes are immutable: updated copies). */
function rebuild(ts, statements, members) {
  const f = ts.factory;
  const i = statements.findIndex(
    (s) => ts.isInterfaceDeclaration(s) && s.name.text === 'components',
  );
  const components = statements[i];
  const newMembers = components.members.map((m) => {
    if (!ts.isPropertySignature(m) || memberName(ts, m) !== 'schemas') return m;
    const literal = m.type;
    const inner = literal.members.map((s) => {
      const name = ts.isPropertySignature(s) ? memberName(ts, s) : undefined;
      const entry = name === undefined ? undefined : members.get(name);
      if (!entry || entry.type === s.type) return s;
      return keepComments(
        ts,
        s,
        f.updatePropertySignature(s, s.modifiers, s.name, s.questionToken, entry.type),
      );
    });
    const type = f.updateTypeLiteralNode(literal, f.createNodeArray(inner));
    return keepComments(
      ts,
      m,
      f.updatePropertySignature(m, m.modifiers, m.name, m.questionToken, type),
    );
  });
  statements[i] = keepComments(
    ts,
    components,
    f.updateInterfaceDeclaration(
      components,
      components.modifiers,
      components.name,
      components.typeParameters,
      components.heritageClauses,
      newMembers,
    ),
  );
}

/** The JSDoc openapi-typescript attached (synthetic comments) stays on the updated node. */
function keepComments(ts, from, to) {
  if (from === to) return to;
  const comments = ts.getSyntheticLeadingComments(from);
  if (comments) ts.setSyntheticLeadingComments(to, comments);
  return to;
}
