/**
 * `background_job` on the real v1 server, as a task tool (2025-11-25 tasks, SEP-1686): a
 * task-augmented call creates a task and answers with it at once; the work runs on a timer of
 * its own and stores its result when done. tasks/cancel (the SDK's own handler) only marks the
 * task cancelled in the store: nothing tells the work, which runs to its end, and the store
 * then refuses its result. Stopping the wait is not stopping the work. A plain call is v1's
 * own "optional" task support: the SDK makes the task and waits for it itself.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_INPUT, type ToolSpec } from '../../src/scenario/index.ts';
import { note } from '../runtime.ts';
import { backgroundWork } from '../lab-tools.ts';

/** Registers a tool that src/scenario/tools.ts says v1 serves as a task: background_job is the one with a task handler. */
export function registerTaskTool(server: McpServer, tool: ToolSpec): void {
  if (tool.name !== 'background_job') throw new Error(`${tool.name}: the v1 server has a task handler for background_job alone`);
  server.experimental.tasks.registerToolTask(
    tool.name,
    { description: tool.summary, inputSchema: TOOL_INPUT.background_job.shape, execution: { taskSupport: 'optional' } },
    {
      async createTask({ ms }, extra) {
        const task = await extra.taskStore.createTask({ ttl: extra.taskRequestedTtl ?? null, pollInterval: 100 });
        note({ type: 'handler-started', requestId: extra.requestId, tool: 'background_job' });
        void (async () => {
          const text = await backgroundWork(ms);
          note({ type: 'stderr', text: `background_job: the work for ${task.taskId} is done after ${ms} ms; storing its result` });
          await extra.taskStore
            .storeTaskResult(task.taskId, 'completed', { content: [{ type: 'text', text }] })
            .catch((error: unknown) => note({ type: 'server-onerror', message: `storeTaskResult refused: ${error instanceof Error ? error.message : String(error)}` }));
        })();
        return { task };
      },
      getTask: (_args, extra) => extra.taskStore.getTask(extra.taskId),
      getTaskResult: async (_args, extra) => CallToolResultSchema.parse(await extra.taskStore.getTaskResult(extra.taskId)),
    },
  );
}
