import { agentGroupId, defineAgent, type AgentHandler } from '@baton/agent-sdk';
import { BatonError } from '@baton/errors';
import { compactedTopicSpec, createTopics } from '@baton/kafka';
import { component } from '@baton/runtime';
import { HandoffValidationError } from '@baton/protocol';
import { readPlannerSettings, type PlannerSettings } from './planner-settings.js';
import { subtaskHandoffs } from './subtask-handoffs.js';
import { planWorkflow } from './workflow-request.js';
import {
  compiledResult,
  completionSummary,
  readChildReport,
  recordChildEnded,
  startWorkflow,
} from './workflow-state.js';
import { WorkflowStore, workflowsTopic } from './workflow-store.js';

export const PLANNER_AGENT = 'planner_agent';

type Env = Record<string, string | undefined>;

/**
 * The workflow's planner. A TASK_TRANSFER (issue_category WORKFLOW) carries a requirement: the planner
 * splits it into N child tasks, each with its own task_id and metadata.parent_task_ids [parent],
 * and hands them to the worker. Each child's end comes back as a NOTIFICATION to the parent task
 * (so the reports of one parent arrive in order, on one partition); when the last child has
 * ended, the parent completes, once. The workflows live in a compacted topic written in the same
 * transactions as the handoffs, read back before every decision (see WorkflowStore).
 */
export function plannerAgent(env: Env = process.env) {
  let settings: PlannerSettings | undefined;
  let store: WorkflowStore | undefined;

  /** The settings and the store, up to date with everything committed before this handoff. */
  const ready = async (): Promise<{ settings: PlannerSettings; workflows: WorkflowStore }> => {
    if (store === undefined || settings === undefined) {
      throw new BatonError('HANDLER_FAILED', 'the workflow store has not started');
    }
    await store.sync();
    return { settings, workflows: store };
  };

  const plan: AgentHandler<'TASK_TRANSFER'> = async (handoff, act, { logger }) => {
    const parent = handoff.metadata.task_id;
    const { settings: defaults, workflows } = await ready();
    if (workflows.get(parent) !== undefined) {
      // The same requirement sent again (a new message_id for the same task): it is being worked on.
      logger.info({ event: 'workflow.already_planned' }, 'task already split; request ignored');
      return;
    }
    const workflow = planWorkflow(handoff.payload.data, defaults);
    for (const next of subtaskHandoffs(parent, workflow, PLANNER_AGENT)) act.handOff(next);
    act.emit(workflows.record(startWorkflow(parent, workflow, new Date())));
    logger.info(
      { event: 'workflow.planned', subtasks: workflow.subtasks.length, max_review_rounds: workflow.max_review_rounds },
      'requirement split',
    );
  };

  const childEnded: AgentHandler<'NOTIFICATION'> = async (handoff, act, { logger }) => {
    const report = readChildReport(handoff.payload.data, handoff.metadata.message_id);
    if (report === undefined) return;
    const parent = handoff.metadata.task_id;
    const { workflows } = await ready();
    const state = workflows.get(parent);
    if (state === undefined) {
      throw new HandoffValidationError([
        { code: 'FIELD_INVALID', path: '/metadata/task_id', message: `${PLANNER_AGENT} never split task ${parent}` },
      ]);
    }
    const outcome = recordChildEnded(state, report, new Date());
    switch (outcome.kind) {
      case 'unknown-child':
        throw new HandoffValidationError([
          {
            code: 'FIELD_INVALID',
            path: '/payload/data/details/child_task_id',
            message: `${report.child_task_id} is not a subtask of ${parent}`,
          },
        ]);
      case 'already-ended':
        logger.info({ event: 'workflow.child_already_ended', child_task_id: report.child_task_id }, 'counted before');
        return;
      case 'progress':
        act.emit(workflows.record(outcome.state));
        logger.info(
          {
            event: 'workflow.child_ended',
            child_task_id: report.child_task_id,
            ended: outcome.ended,
            of: outcome.total,
          },
          'subtask ended',
        );
        return;
      case 'completed':
        act.emit(workflows.record(outcome.state));
        act.replyToUser(compiledResult(outcome.state));
        act.complete(completionSummary(outcome.state));
        logger.info({ event: 'workflow.completed', subtasks: outcome.total }, 'every subtask ended: task completed');
    }
  };

  return defineAgent({
    id: PLANNER_AGENT,
    handlers: { TASK_TRANSFER: plan, NOTIFICATION: childEnded },
    // Each decision reads the workflow state the previous report of the same parent wrote.
    readsOwnOutputs: true,
    components(context) {
      const { config, topics, kafka, logger } = context;
      const read = readPlannerSettings(env);
      settings = read;
      const topic = workflowsTopic(topics.prefix);
      const workflows = new WorkflowStore({
        kafka,
        topic,
        groupId: `${agentGroupId(topics, PLANNER_AGENT)}.workflows-reader.${config.instanceId}`,
        logger,
      });
      store = workflows;
      // Started before the consumer and closed after it has drained, so the workflows are being read
      // before the first handoff and kept to the last; each decision syncs the store first.
      return [
        component('workflow-store', {
          start: async () => {
            await createTopics(kafka, [
              compactedTopicSpec(topic, {
                numPartitions: config.partitions,
                replicationFactor: config.replicationFactor,
              }),
            ]);
            await workflows.start();
            logger.info({ event: 'workflows.reading', topic, ...read }, 'reading workflows');
          },
          close: () => workflows.stop(),
        }),
      ];
    },
  });
}

export const agent = plannerAgent();
