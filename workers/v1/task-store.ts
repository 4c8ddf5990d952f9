/**
 * The task store the v1 server keeps its tasks in. v1 leaves the store to the application (its
 * `TaskStore` interface); the SDK's own InMemoryTaskStore draws task ids from `node:crypto`,
 * which no browser has and no seed reaches, so the lab keeps its own: ids "task-1", "task-2", …,
 * and the same refusal InMemoryTaskStore makes of a result for a task already in a terminal
 * status (experimental/tasks/stores/in-memory.ts storeTaskResult). That refusal is the point:
 * a cancelled task's work runs on, and its result has nowhere to go.
 */
// interfaces.js, not the package's index: that one also loads InMemoryTaskStore, and node:crypto with it.
import { isTerminal, type CreateTaskOptions, type TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import type { Result, Task } from '@modelcontextprotocol/sdk/types.js';

interface Stored {
  task: Task;
  result?: Result;
}

export class LabTaskStore implements TaskStore {
  private readonly tasks = new Map<string, Stored>();

  private stored(taskId: string): Stored {
    const stored = this.tasks.get(taskId);
    if (!stored) throw new Error(`Task with ID ${taskId} not found`);
    return stored;
  }

  async createTask(params: CreateTaskOptions): Promise<Task> {
    const now = new Date().toISOString();
    const task: Task = { taskId: `task-${this.tasks.size + 1}`, status: 'working', ttl: params.ttl ?? null, createdAt: now, lastUpdatedAt: now, pollInterval: params.pollInterval ?? 1000 };
    this.tasks.set(task.taskId, { task });
    return { ...task };
  }

  async getTask(taskId: string): Promise<Task | null> {
    const stored = this.tasks.get(taskId);
    return stored ? { ...stored.task } : null;
  }

  async storeTaskResult(taskId: string, status: 'completed' | 'failed', result: Result): Promise<void> {
    const stored = this.stored(taskId);
    if (isTerminal(stored.task.status)) throw new Error(`Cannot store result for task ${taskId} in terminal status '${stored.task.status}'`);
    stored.result = result;
    stored.task = { ...stored.task, status, lastUpdatedAt: new Date().toISOString() };
  }

  async getTaskResult(taskId: string): Promise<Result> {
    const { result } = this.stored(taskId);
    if (!result) throw new Error(`Task ${taskId} has no result stored`);
    return result;
  }

  async updateTaskStatus(taskId: string, status: Task['status'], statusMessage?: string): Promise<void> {
    const stored = this.stored(taskId);
    if (isTerminal(stored.task.status)) throw new Error(`Cannot update task ${taskId} from terminal status '${stored.task.status}' to '${status}'`);
    stored.task = { ...stored.task, status, lastUpdatedAt: new Date().toISOString(), ...(statusMessage !== undefined && { statusMessage }) };
  }

  async listTasks(): Promise<{ tasks: Task[] }> {
    return { tasks: [...this.tasks.values()].map((s) => ({ ...s.task })) };
  }
}
