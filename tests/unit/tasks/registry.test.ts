import { describe, expect, it } from 'vitest';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TaskRegistry } from '../../../src/tasks/task-registry.ts';
import { nodeFileLoader } from '../../../src/tasks/node-file-loader.ts';
import { parseCsv } from '../../../src/tasks/csv.ts';
import { programInputs } from '../../../src/tasks/task-builder.ts';
import { RegistryTasks } from '../../../src/app/ports-browser.ts';

const tasksDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'public', 'tasks');

describe('task registry on the committed suite', () => {
  const reg = new TaskRegistry(nodeFileLoader(tasksDir));

  it('lists train and held-out tasks, the smoke ones unless includeSmoke is false', async () => {
    const all = await reg.list();
    const train = await reg.list({ split: 'train', includeSmoke: false });
    const heldout = await reg.list({ split: 'heldout' });
    expect(heldout.length).toBe(9);
    expect(train.every((t) => t.role === 'scored' && t.split === 'train')).toBe(true);
    expect(train.length).toBe(16);
    expect(all.length).toBe(28);
    expect(all.some((t) => t.role === 'smoke')).toBe(true);
  });

  // Every committed RL run drew its groups from these 19 (docs/tasks.md): a change here changes what runs train on.
  it("the trainer's training tasks are all 19, the 3 smoke ones included; its held-out tasks the 9", async () => {
    const source = new RegistryTasks(reg);
    const train = await source.trainingTasks();
    expect(train.length).toBe(19);
    expect(train.map((t) => t.id)).toEqual(expect.arrayContaining(['sklearn_breast_cancer', 'sklearn_wine', 'vega_penguins']));
    expect((await source.heldOutTasks()).length).toBe(9);
  });

  it('loads a task that matches its hidden labels, without the target in test.csv', async () => {
    const t = await reg.loadTask('carData_Wells');
    const labels = await reg.loadLabels('carData_Wells');
    const test = parseCsv(t.testCsv);
    const train = parseCsv(t.trainCsv);
    expect(test.rows.length).toBe(t.meta.nTest);
    expect(labels.labels.length).toBe(t.meta.nTest);
    expect(train.rows.length).toBe(t.meta.nTrain);
    expect(test.header).not.toContain(t.meta.target);
    expect(train.header.at(-1)).toBe(t.meta.target);
    expect(t.meta.positive).toBe('yes');
    expect(JSON.parse(programInputs(t)['task.json'])).toMatchObject({ target: 'switch', type: 'binary', metric: 'auc', positive: 'yes' });
  });

  it('unknown ids and path tricks are refused', async () => {
    await expect(reg.loadTask('nope')).rejects.toThrow(/no task with id "nope"/);
    await expect(reg.loadTask('../secret')).rejects.toThrow(/no task with id/);
    await expect(nodeFileLoader(tasksDir)('../../package.json')).rejects.toThrow(/leaves the task folder/);
  });
});
