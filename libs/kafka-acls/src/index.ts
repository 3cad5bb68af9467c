// Each Baton service its own Kafka principal, with the ACLs its code needs (docs/deployment.md).
export {
  batonTopology,
  agentsOf,
  type Topology,
  type BatonService,
  type AgentService,
  type PlatformService,
  type ServiceKind,
} from './topology.js';
export { serviceAcls, type ServiceAclsOptions } from './service-acls.js';
export { kafkaAclsCommands, shellWord, OPERATION_NAMES, type KafkaAclsCommandsOptions } from './kafka-acls-commands.js';
export { strimziKafkaUsers, type StrimziAuthentication, type StrimziKafkaUsersOptions } from './strimzi-users.js';
// The binding types, defined where applyAcls creates them.
export type { AclGrant, AclOperation, AclPatternType, AclResourceType, PrincipalAcls } from '@baton/kafka';
