/**
 * The scenario editor: CodeMirror 6 with JSON and a linter that checks the text against the
 * scenario schema (src/scenario-schema.ts), each problem placed at the value its path names.
 * Loaded on first open; Run hands a valid scenario back to the playground.
 */
import { EditorView, basicSetup } from 'codemirror';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import { syntaxTree } from '@codemirror/language';
import type { EditorState } from '@codemirror/state';
import type { SyntaxNode } from '@lezer/common';
import { scenarioSchema } from '../../src/scenario/index.ts';
import type { Scenario } from '../../src/scenario/index.ts';

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
  const result = scenarioSchema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map((issue) => {
    const node = nodeAt(view.state, issue.path);
    return { from: node.from, to: node.to, severity: 'error', message: `${issue.path.join('.') || '(root)'}: ${issue.message}` };
  });
});

export interface ScenarioEditor {
  set(scenario: Scenario): void;
  /** The scenario in the editor, or the reasons it is not one. */
  read(): { ok: true; scenario: Scenario } | { ok: false; errors: string[] };
}

export function createEditor(parent: HTMLElement): ScenarioEditor {
  const view = new EditorView({
    parent,
    extensions: [basicSetup, json(), linter(jsonParseLinter()), schemaLinter, lintGutter(), EditorView.lineWrapping],
  });
  return {
    set(scenario) {
      const text = JSON.stringify(scenario, null, 2);
      if (text !== view.state.doc.toString()) view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    read() {
      let value: unknown;
      try {
        value = JSON.parse(view.state.doc.toString());
      } catch (error) {
        return { ok: false, errors: [`Not JSON: ${error instanceof Error ? error.message : String(error)}`] };
      }
      const result = scenarioSchema.safeParse(value);
      if (result.success) return { ok: true, scenario: result.data as Scenario };
      return { ok: false, errors: result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`) };
    },
  };
}
