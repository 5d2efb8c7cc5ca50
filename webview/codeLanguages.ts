import type { LanguageFn } from 'highlight.js';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import diff from 'highlight.js/lib/languages/diff';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import plaintext from 'highlight.js/lib/languages/plaintext';
import python from 'highlight.js/lib/languages/python';
import shell from 'highlight.js/lib/languages/shell';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

/** What agents fence most often: in the panel's own bundle, highlighted from the first frame. */
const EAGER: Record<string, LanguageFn> = { bash, diff, javascript, json, markdown, plaintext, python, shell, typescript, xml, yaml };
for (const [name, language] of Object.entries(EAGER)) hljs.registerLanguage(name, language);

type LanguageModule = Promise<{ default: LanguageFn }>;

/**
 * The rest of highlight.js's common set, each in a chunk of its own that loads the first time a
 * code block names it. Their aliases must be known before the language is (a block says ```rs,
 * not ```rust): they are highlight.js's own, which a unit test compares with each definition.
 */
export const LAZY_LANGUAGES: Record<string, { aliases: readonly string[]; load: () => LanguageModule }> = {
  c: { aliases: ['h'], load: () => import('highlight.js/lib/languages/c') },
  cpp: { aliases: ['cc', 'c++', 'h++', 'hpp', 'hh', 'hxx', 'cxx'], load: () => import('highlight.js/lib/languages/cpp') },
  csharp: { aliases: ['cs', 'c#'], load: () => import('highlight.js/lib/languages/csharp') },
  css: { aliases: [], load: () => import('highlight.js/lib/languages/css') },
  go: { aliases: ['golang'], load: () => import('highlight.js/lib/languages/go') },
  graphql: { aliases: ['gql'], load: () => import('highlight.js/lib/languages/graphql') },
  ini: { aliases: ['toml'], load: () => import('highlight.js/lib/languages/ini') },
  java: { aliases: ['jsp'], load: () => import('highlight.js/lib/languages/java') },
  kotlin: { aliases: ['kt', 'kts', 'ktm', 'ktx'], load: () => import('highlight.js/lib/languages/kotlin') },
  less: { aliases: [], load: () => import('highlight.js/lib/languages/less') },
  lua: { aliases: ['pluto'], load: () => import('highlight.js/lib/languages/lua') },
  makefile: { aliases: ['mk', 'mak', 'make'], load: () => import('highlight.js/lib/languages/makefile') },
  objectivec: { aliases: ['mm', 'objc', 'obj-c', 'obj-c++', 'objective-c++'], load: () => import('highlight.js/lib/languages/objectivec') },
  perl: { aliases: ['pl', 'pm'], load: () => import('highlight.js/lib/languages/perl') },
  php: { aliases: [], load: () => import('highlight.js/lib/languages/php') },
  'php-template': { aliases: [], load: () => import('highlight.js/lib/languages/php-template') },
  'python-repl': { aliases: ['pycon'], load: () => import('highlight.js/lib/languages/python-repl') },
  r: { aliases: [], load: () => import('highlight.js/lib/languages/r') },
  ruby: { aliases: ['rb', 'gemspec', 'podspec', 'thor', 'irb'], load: () => import('highlight.js/lib/languages/ruby') },
  rust: { aliases: ['rs'], load: () => import('highlight.js/lib/languages/rust') },
  scss: { aliases: [], load: () => import('highlight.js/lib/languages/scss') },
  sql: { aliases: [], load: () => import('highlight.js/lib/languages/sql') },
  swift: { aliases: [], load: () => import('highlight.js/lib/languages/swift') },
  vbnet: { aliases: ['vb'], load: () => import('highlight.js/lib/languages/vbnet') },
  wasm: { aliases: [], load: () => import('highlight.js/lib/languages/wasm') },
};

const lazyByAlias = new Map<string, string>();
for (const [name, { aliases }] of Object.entries(LAZY_LANGUAGES)) {
  for (const alias of [name, ...aliases]) lazyByAlias.set(alias, name);
}

const loading = new Set<string>();

export type Highlighted = { html: string } | 'loading' | 'unknown';

/**
 * `code` as highlighted HTML when `language` is registered. 'loading' when it is one of the lazy
 * ones, not loaded yet: its chunk is fetched (once) and `arrived` is called when it is registered,
 * so blocks drawn plain meanwhile can be highlighted then. 'unknown' when highlight.js has no such
 * language.
 */
export function highlightCode(code: string, language: string, arrived: () => void): Highlighted {
  if (hljs.getLanguage(language)) return { html: hljs.highlight(code, { language, ignoreIllegals: true }).value };
  const lazy = lazyByAlias.get(language.toLowerCase());
  if (!lazy) return 'unknown';
  if (!loading.has(lazy)) {
    loading.add(lazy);
    (LAZY_LANGUAGES[lazy] as { load: () => LanguageModule }).load().then((module) => {
      hljs.registerLanguage(lazy, module.default);
      arrived();
    }, (error: unknown) => {
      // The block stays plain; the next one in this language tries again.
      loading.delete(lazy);
      console.error(`Tandem: highlighting for ${lazy} did not load`, error);
    });
  }
  return 'loading';
}
