import type { TimelineEvent, UserReply } from '@baton/gateway-api';

/**
 * How far a client has read a task's stream: steps of its timeline and replies to the user. Each
 * count is stable: the timeline is in the events topic's order and the replies in the user-replies
 * topic's, each one partition per task. So `<steps>.<replies>`, the id of every event sent, lets a
 * client resume from any gateway instance, and after a restart, with neither loss nor repeat.
 */
export interface StreamPosition {
  steps: number;
  replies: number;
}

export const STREAM_START: StreamPosition = { steps: 0, replies: 0 };

const EVENT_ID = /^(\d{1,9})\.(\d{1,9})$/;

/** The position a `Last-Event-ID` names; the start when there is none or it is not one of ours. */
export function streamPositionOf(lastEventId: string | undefined): StreamPosition {
  const match = lastEventId === undefined ? null : EVENT_ID.exec(lastEventId.trim());
  return match === null ? STREAM_START : { steps: Number(match[1]), replies: Number(match[2]) };
}

export function streamEventId(position: StreamPosition): string {
  return `${position.steps}.${position.replies}`;
}

export interface StreamFrame {
  id: string;
  event: 'step' | 'reply';
  data: TimelineEvent | UserReply;
}

/**
 * What a client at `from` has not seen yet, as frames in time order (a step before a reply of the
 * same time: the reply is the step's effect), and the position after them. Each stream stays in
 * its own order whatever the times say.
 */
export function framesAfter(
  from: StreamPosition,
  steps: readonly TimelineEvent[],
  replies: readonly UserReply[],
): { frames: StreamFrame[]; to: StreamPosition } {
  const frames: StreamFrame[] = [];
  let { steps: step, replies: reply } = from;
  while (step < steps.length || reply < replies.length) {
    const nextStep = steps[step];
    const nextReply = replies[reply];
    const takeStep = nextReply === undefined || (nextStep !== undefined && nextStep.time <= nextReply.time);
    if (takeStep) step += 1;
    else reply += 1;
    frames.push({
      id: streamEventId({ steps: step, replies: reply }),
      event: takeStep ? 'step' : 'reply',
      data: (takeStep ? nextStep : nextReply) as TimelineEvent | UserReply,
    });
  }
  return { frames, to: { steps: step, replies: reply } };
}

/** One frame in the text/event-stream format; JSON has no raw newline, so `data` is one line. */
export function sseText(frame: StreamFrame): string {
  return `id: ${frame.id}\nevent: ${frame.event}\ndata: ${JSON.stringify(frame.data)}\n\n`;
}
