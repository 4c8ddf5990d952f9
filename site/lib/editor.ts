/**
 * The scenario editor: CodeMirror 6 with JSON and a linter that checks the text against the
 * scenario schema and each call's arguments against its tool's schema (what the server accepts,
 * `validateToolArgs`), each problem placed at the value its path names. Loaded on first open;
 * Run hands a valid scenario back to the playground.
 */
import { EditorView, basicSetup } from 'codemirror';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import { syntaxTree } from '@codemirror/language';
import type { EditorState } from '@codemirror/state';
import type { SyntaxNode } from '@lezer/common';
import type { Scenario } from '../../src/scenario/index.ts';
import { check, say } from './editor-check.ts';

/** The syntax node of the value at `path` (object keys and array indexes), or the closest parent. */
function nodeAt(state: EditorState, path: readonly PropertyKey[]): SyntaxNode {
  let node: SyntaxNode = syntaxTree(state).topNode.firstChild ?? syntaxTree(state).topNode;
  for (const key of path) {
    let next: SyntaxNode | null = null;
    if (node.name === 'Object' && typeof key === 'string') {
      for (let prop = node.firstChild; prop; prop = prop.nextSibling) {
        if (prop.name !== 'Property') continue;
        const name = prop.getChild('PropertyName');
        if (name && state.sliceDoc(name.from + 1, name.to - 1) === key) next = prop.lastChild;
      }
    } else if (node.name === 'Array' && typeof key === 'number') {
      let i = 0;
      for (let item = node.firstChild; item; item = item.nextSibling) {
        if (item.name === '[' || item.name === ']' || item.name === ',' || item.name === '⚠') continue;
        if (i++ === key) next = item;
      }
    }
    if (!next) break;
    node = next;
  }
  return node;
}

const schemaLinter = linter((view): Diagnostic[] => {
  const text = view.state.doc.toString();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return []; // jsonParseLinter reports syntax errors
  }
  const checked = check(value);
  if (checked.ok) return [];
  return checked.problems.map((p) => {
    const node = nodeAt(view.state, p.path);
    return { from: node.from, to: node.to, severity: 'error', message: say(p) };
  });
});

export interface ScenarioEditor {
  /** Shows the scenario; the text it shows is then the one the editor counts as not edited. */
  set(scenario: Scenario): void;
  /** Puts text back that the user typed before (a reload): it counts as edited. */
  restore(text: string): void;
  /** The user's text, or null when the editor shows what it was last set to. */
  edits(): string | null;
  /** Called after each change the user makes to the text. */
  onEdit(listener: () => void): void;
  /** The scenario in the editor, or the reasons it is not one. */
  read(): { ok: true; scenario: Scenario } | { ok: false; errors: string[] };
}

export function createEditor(parent: HTMLElement): ScenarioEditor {
  let shown = '';
  const listeners: (() => void)[] = [];
  const replace = (text: string) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
  const view = new EditorView({
    parent,
    extensions: [
      basicSetup,
      json(),
      linter(jsonParseLinter()),
      schemaLinter,
      lintGutter(),
      EditorView.lineWrapping,
      EditorView.updateListener.of((update) => {
        if (update.docChanged) for (const listener of listeners) listener();
      }),
    ],
  });
  return {
    set(scenario) {
      shown = JSON.stringify(scenario, null, 2);
      if (shown !== view.state.doc.toString()) replace(shown);
    },
    restore(text) {
      if (text !== view.state.doc.toString()) replace(text);
    },
    edits() {
      const text = view.state.doc.toString();
      return text === shown ? null : text;
    },
    onEdit: (listener) => void listeners.push(listener),
    read() {
      let value: unknown;
      try {
        value = JSON.parse(view.state.doc.toString());
      } catch (error) {
        return { ok: false, errors: [`Not JSON: ${error instanceof Error ? error.message : String(error)}`] };
      }
      const checked = check(value);
      return checked.ok ? checked : { ok: false, errors: checked.problems.map(say) };
    },
  };
}
