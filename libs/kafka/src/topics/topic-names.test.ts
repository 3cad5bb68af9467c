import { describe, expect, it } from 'vitest';
import { topicNames } from './topic-names.js';

describe('topicNames', () => {
  it("names an agent's inbox and control topic under the prefix", () => {
    const topics = topicNames('acme');
    expect(topics.agentInbox('sales_agent')).toBe('acme.agent.sales_agent.inbox');
    expect(topics.agentControl('sales_agent')).toBe('acme.agent.sales_agent.control');
    expect(topicNames().agentInbox('sales_agent')).toBe('baton.agent.sales_agent.inbox');
  });

  it('names every agent right past the number of names it remembers', () => {
    const topics = topicNames('acme');
    for (let round = 0; round < 2; round += 1) {
      for (let agent = 0; agent < 1_500; agent += 1) {
        expect(topics.agentInbox(`agent_${agent}`)).toBe(`acme.agent.agent_${agent}.inbox`);
        expect(topics.agentControl(`agent_${agent}`)).toBe(`acme.agent.agent_${agent}.control`);
      }
    }
  });
});
