export { defineModelAgent, type ModelAgentDefinition } from './define-model-agent.js';
export { handoffToolName, type ModelHandoffTarget, type ModelTool, type ToolCallContext } from './model-tool.js';
export {
  loadModelConfig,
  MODEL_PROVIDERS,
  MODEL_VARIABLE,
  type ModelConfig,
  type ModelProvider,
} from './model-config.js';
export { languageModel, modelAgentFromEnv, type ConfiguredModel } from './language-model.js';
export {
  CHAT_MESSAGE,
  TOOL_CALL,
  TOOL_RESULT,
  chatEntry,
  conversationOf,
  modelMessages,
  type Conversation,
} from './conversation.js';
export { modelCallError } from './model-errors.js';
