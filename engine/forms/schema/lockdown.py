"""The script that prepares each QuickJS context of ``expressions`` before any schema code runs.

Schema expressions come from whoever serves the schema, and one context serves every schema a
process evaluates (a ``batch``, the REPL, a server): whatever one expression changes, every later
one would see. So, once per context:

- every built-in reachable by a script (the global object, constructors, prototypes, the
  iterator and generator prototypes only instances reach, accessor functions) is frozen, and so
  is the global object: no expression can replace ``Array.prototype.includes`` or leave a
  global variable behind;
- the few built-in properties that ordinary code overrides on its own objects (``toString``,
  ``valueOf``, ``constructor``, an error's ``name`` and ``message``) become accessors whose
  setter gives the object its own property, so ``item.toString = ...`` keeps working (the
  "override mistake" of frozen prototypes) while the built-in stays as it was;
- ``Error.prepareStackTrace`` and ``Error.stackTraceLimit``, runtime-wide settings behind
  setters, become fixed values;
- ``__deskcheck`` (frozen, not writable) holds what the Python side calls: ``compile`` wraps an
  expression's function so that its scope crosses as JSON text and its result comes back the
  same way, with the shared scope (root document, context) parsed once while its text stays
  the same and frozen deeply, since every evaluation reads the same objects; ``urlParts`` is
  the tag that returns a URL template's literal pieces and interpolated values apart;
  ``regexTest`` tests a ``pattern``.

The names the shared state lives under are closure variables: no expression can reach them.
``SCOPE_NAMES_MARK`` is replaced by the JSON list of the names an expression's function takes.
"""

SCOPE_NAMES_MARK = "__NAMES__"

LOCKDOWN_SCRIPT = r"""
(function () {
  "use strict";
  const G = globalThis;
  const freeze = Object.freeze, isFrozen = Object.isFrozen, getPrototypeOf = Object.getPrototypeOf;
  const describe = Object.getOwnPropertyDescriptor, define = Object.defineProperty, ownKeys = Reflect.ownKeys;
  const parse = JSON.parse, stringify = JSON.stringify, toText = String, apply = Reflect.apply;
  const isArray = Array.isArray, objectKeys = Object.keys;
  const NewRegExp = RegExp, regexpTest = RegExp.prototype.test;

  // Everything reachable from `roots` (own properties, accessors, prototypes), frozen. What is
  // frozen already (%ThrowTypeError%) is not walked again.
  function deepFreeze(roots) {
    const stack = roots.slice();
    const seen = new Set();
    while (stack.length) {
      const value = stack.pop();
      if ((typeof value !== "object" && typeof value !== "function") || value === null) continue;
      if (seen.has(value) || isFrozen(value)) continue;
      seen.add(value);
      stack.push(getPrototypeOf(value));
      const keys = ownKeys(value);
      for (let i = 0; i < keys.length; i++) {
        const d = describe(value, keys[i]);
        if (d.get || d.set) stack.push(d.get, d.set);
        else stack.push(d.value);
      }
      freeze(value);
    }
  }

  // Parsed JSON is a tree of plain objects and arrays: freezing it needs no visited set.
  function freezeData(root) {
    const stack = [root];
    while (stack.length) {
      const value = stack.pop();
      freeze(value);
      const keys = isArray(value) ? null : objectKeys(value);
      const count = keys === null ? value.length : keys.length;
      for (let i = 0; i < count; i++) {
        const item = keys === null ? value[i] : value[keys[i]];
        if (typeof item === "object" && item !== null) stack.push(item);
      }
    }
    return root;
  }

  // The "override mistake": once Object.prototype.toString is frozen, `item.toString = f` on
  // an ordinary object would fail. These few become accessors whose setter gives the object
  // its own property instead (the built-in itself stays unchanged).
  function allowOverride(holder, key) {
    const d = describe(holder, key);
    if (d === undefined || !("value" in d)) return;
    const original = d.value;
    define(holder, key, {
      configurable: false,
      enumerable: d.enumerable,
      get: function () { return original; },
      set: function (value) {
        if (this === holder) throw new TypeError("the built-in " + toText(key) + " is read-only");
        define(this, key, { value: value, writable: true, enumerable: true, configurable: true });
      },
    });
  }
  for (const key of ["constructor", "toString", "valueOf", "toLocaleString", "hasOwnProperty"]) {
    allowOverride(Object.prototype, key);
  }
  for (const E of [Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError]) {
    for (const key of ["constructor", "name", "message"]) allowOverride(E.prototype, key);
  }
  allowOverride(Error.prototype, "toString");

  // Runtime-wide settings behind accessors: an evaluation could set a function every later
  // error would call. They become fixed values.
  define(Error, "prepareStackTrace", { value: undefined, writable: false, enumerable: false, configurable: false });
  define(Error, "stackTraceLimit", { value: 10, writable: false, enumerable: false, configurable: false });

  let sharedText = "{}";
  let shared = freeze({});
  const NAMES = __NAMES__;

  const api = {
    compile: function (fn) {
      freeze(fn);
      if (fn.prototype) freeze(fn.prototype);
      return freeze(function (scopeText, sharedIn) {
        if (sharedIn !== null && sharedIn !== sharedText) {
          shared = freezeData(parse(sharedIn));
          sharedText = sharedIn;
        }
        const scope = parse(scopeText);
        const args = [];
        for (let i = 0; i < NAMES.length; i++) {
          const name = NAMES[i];
          args[i] = name in scope ? scope[name] : sharedIn === null ? undefined : shared[name];
        }
        return stringify({ value: apply(fn, undefined, args) });
      });
    },
    urlParts: function (strings) {
      const texts = [], values = [];
      for (let i = 0; i < strings.length; i++) texts[i] = strings[i] === undefined ? strings.raw[i] : strings[i];
      for (let i = 1; i < arguments.length; i++) values[i - 1] = toText(arguments[i]);
      return { strings: texts, values: values };
    },
    regexTest: function (pattern, text) {
      let r;
      try { r = new NewRegExp(pattern, "u"); } catch (e) { r = new NewRegExp(pattern); }
      return apply(regexpTest, r, [text]);
    },
  };
  define(G, "__deskcheck", { value: freeze(api), writable: false, enumerable: false, configurable: false });

  const roots = [G];
  const probes = [
    function () { return function* () {}; },
    function () { return (function* () {})(); },
    function () { return async function () {}; },
    function () { return async function* () {}; },
    function () { return (async function* () {})(); },
    function () { return [][Symbol.iterator](); },
    function () { return ""[Symbol.iterator](); },
    function () { return new Map()[Symbol.iterator](); },
    function () { return new Set()[Symbol.iterator](); },
    function () { return /a/g[Symbol.matchAll](""); },
    function () { return [].values().map(function (x) { return x; }); },
    function () { return Iterator.from({ next: function () { return { done: true }; } }); },
    function () { return (function () { return arguments; })(); },
    function () { "use strict"; return (function () { return arguments; })(); },
    function () { return new Error().stack; },
  ];
  for (const probe of probes) {
    try { roots.push(probe()); } catch (e) { /* an engine without that feature */ }
  }
  deepFreeze(roots);
})();
"""
