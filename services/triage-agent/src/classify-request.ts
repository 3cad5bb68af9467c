/** What triage can tell from a customer's words. */
export type RequestCategory = 'HUMAN' | 'REFUND' | 'NETWORK_CONNECTIVITY' | 'REPAIR' | 'SALES';

export interface Classification {
  category: RequestCategory;
  /** The keyword that decided it, for the record in previous_actions. */
  keyword: string;
}

// The first category with a match wins, so the order settles mixed requests: an explicit ask for a
// person beats everything (triage escalates to the human "only if explicitly asked to"); a refund
// or return beats the fault behind it; a network fault beats a generic "broken"; and buying comes
// last, since "the shoes I ordered are broken" is not a sale. Past purchases ("I bought") are
// deliberately no sales keyword: the sample refund conversation says "A pair of shoes I bought".
const KEYWORDS: readonly (readonly [RequestCategory, readonly string[]])[] = [
  ['HUMAN', ['manager', 'supervisor', 'human', 'real person', 'someone real', '人工', '经理', '主管']],
  ['REFUND', ['refund', 'return', 'money back', 'reimburse', '退款', '退货', '退钱']],
  [
    'NETWORK_CONNECTIVITY',
    ['network', 'internet', 'wifi', 'wi-fi', 'connection', 'connectivity', 'offline', '网络', '断网', '上不了网'],
  ],
  [
    'REPAIR',
    ['repair', 'broken', 'fix', 'damaged', 'defective', 'faulty', 'not working', 'stopped working', '维修', '坏了'],
  ],
  ['SALES', ['buy', 'purchase', 'price', 'order', 'how much', 'cost', '购买', '买', '价格', '下单']],
];

const ASCII = /^[\x20-\x7e]+$/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Latin keywords match whole words, with the inflections a customer is likely to type
 * ("refunds", "returned", "buying"); Chinese keywords match anywhere, Chinese having no spaces.
 */
function keywordMatcher(keyword: string): (text: string) => boolean {
  if (!ASCII.test(keyword)) return (text) => text.includes(keyword);
  const pattern = new RegExp(`(?<![a-z0-9])${escapeRegExp(keyword)}(?:s|es|ed|ing)?(?![a-z0-9])`);
  return (text) => pattern.test(text);
}

const MATCHERS = KEYWORDS.flatMap(([category, keywords]) =>
  keywords.map((keyword) => ({ category, keyword, matches: keywordMatcher(keyword) })),
);

/** Classifies everything the customer said, taken together; undefined when no keyword matches. */
export function classifyRequest(utterances: readonly string[]): Classification | undefined {
  const texts = utterances.map((text) => text.toLowerCase().replace(/\s+/g, ' '));
  const match = MATCHERS.find(({ matches }) => texts.some(matches));
  return match === undefined ? undefined : { category: match.category, keyword: match.keyword };
}
