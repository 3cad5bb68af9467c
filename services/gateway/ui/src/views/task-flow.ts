import type { TimelineEvent } from '@baton/gateway-api';
import type { Tone } from '../dom.js';
import { flowLayout, type FlowMark } from './task-flow-layout.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
/** Room for the step numbers on the left, the lane names on top, and each lane and row. */
const LEFT = 36;
const TOP = 44;
const LANE_WIDTH = 170;
const ROW_HEIGHT = 30;
const TONES: readonly Tone[] = ['good', 'bad', 'warn', 'info'];

type Attributes = Record<string, string | number>;

/** An SVG element; text goes in as text, never as markup. Colours come from the stylesheet's classes. */
function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Attributes,
  ...children: (SVGElement | string)[]
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  node.append(...children);
  return node;
}

/** Cuts a label to what a lane's width holds. */
function fit(label: string, width: number): string {
  const chars = Math.floor(width / 6.4);
  return label.length > chars ? `${label.slice(0, chars - 1)}…` : label;
}

/**
 * A task's steps as a sequence diagram (flowLayout): the agents as lanes, each routed handoff and
 * each negotiation message an arrow labelled with its handoff or message type, what became of it a
 * note on the agent's lane, dead letters and undelivered recipients in red. Each mark carries the
 * step's number, as the steps table below numbers them, and its full text as a tooltip.
 */
export function flowDiagram(steps: readonly TimelineEvent[]): SVGSVGElement {
  const layout = flowLayout(steps);
  const width = LEFT + layout.lanes.length * LANE_WIDTH;
  const height = TOP + layout.rows * ROW_HEIGHT + 12;
  const x = (lane: string) => LEFT + layout.lanes.indexOf(lane) * LANE_WIDTH + LANE_WIDTH / 2;
  const y = (row: number) => TOP + row * ROW_HEIGHT + ROW_HEIGHT / 2;
  const heads = svg(
    'defs',
    {},
    ...TONES.map((tone) =>
      svg(
        'marker',
        {
          id: `flow-head-${tone}`,
          viewBox: '0 0 10 10',
          refX: 9,
          refY: 5,
          markerWidth: 7,
          markerHeight: 7,
          orient: 'auto-start-reverse',
        },
        svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: `flow-head tone-${tone}` }),
      ),
    ),
  );
  const lanes = layout.lanes.map((lane) =>
    svg(
      'g',
      { 'data-testid': 'flow-lane', 'data-lane': lane },
      svg('text', { x: x(lane), y: 18, class: 'flow-lane-name', 'text-anchor': 'middle' }, fit(lane, LANE_WIDTH - 8)),
      svg('title', {}, lane),
      svg('line', { x1: x(lane), y1: TOP - 14, x2: x(lane), y2: height - 4, class: 'flow-lane' }),
    ),
  );
  const numbers = Array.from({ length: layout.rows }, (_, row) =>
    svg('text', { x: LEFT - 10, y: y(row) + 4, class: 'flow-row-number', 'text-anchor': 'end' }, String(row + 1)),
  );
  const marks = layout.marks.map((mark) => markElement(mark, x, y(mark.row)));
  return svg(
    'svg',
    {
      width,
      height,
      viewBox: `0 0 ${width} ${height}`,
      class: 'flow',
      role: 'img',
      'aria-label': `Sequence diagram of ${layout.rows} steps between ${layout.lanes.join(', ')}`,
      'data-testid': 'flow-diagram',
    },
    heads,
    ...lanes,
    ...numbers,
    ...marks,
  );
}

function markElement(mark: FlowMark, x: (lane: string) => number, rowY: number): SVGGElement {
  if (mark.kind === 'note') {
    const boxWidth = Math.min(LANE_WIDTH - 10, mark.label.length * 6.4 + 14);
    return svg(
      'g',
      {
        class: `flow-note tone-${mark.tone}`,
        'data-testid': 'flow-mark',
        'data-kind': 'note',
        'data-lane': mark.lane,
        'data-label': mark.label,
      },
      svg('title', {}, `${mark.row + 1}. ${mark.lane}: ${mark.label}`),
      svg('rect', { x: x(mark.lane) - boxWidth / 2, y: rowY - 10, width: boxWidth, height: 20, rx: 4 }),
      svg('text', { x: x(mark.lane), y: rowY + 4, 'text-anchor': 'middle' }, fit(mark.label, boxWidth - 8)),
    );
  }
  const from = x(mark.from);
  const to = x(mark.to);
  const span = Math.max(Math.abs(to - from), LANE_WIDTH);
  // A message to itself loops back to its own lane.
  const path =
    from === to ? `M ${from} ${rowY - 6} h 28 v 12 h -26` : `M ${from} ${rowY} L ${to + (to > from ? -2 : 2)} ${rowY}`;
  return svg(
    'g',
    {
      class: `flow-arrow tone-${mark.tone}${mark.dashed ? ' dashed' : ''}`,
      'data-testid': 'flow-mark',
      'data-kind': 'arrow',
      'data-from': mark.from,
      'data-to': mark.to,
      'data-label': mark.label,
    },
    svg('title', {}, `${mark.row + 1}. ${mark.from} → ${mark.to}: ${mark.label}`),
    svg('path', { d: path, 'marker-end': `url(#flow-head-${mark.tone})` }),
    svg(
      'text',
      { x: from === to ? from + 32 : (from + to) / 2, y: rowY - 5, 'text-anchor': from === to ? 'start' : 'middle' },
      fit(mark.label, span - 12),
    ),
  );
}
