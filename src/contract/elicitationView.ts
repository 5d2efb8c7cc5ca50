/** A question the agent asks the user (`elicitation/create`), as the panel renders it, and how the user answers. */
export type { ChoiceView, ElicitationFieldView, ElicitationValue, ElicitationState, ElicitationView } from '../thread/elicitationForm';
export { elicitationActions, type ElicitationAction } from '../elicitation/elicitationActions';
