import { farewell, greeting } from './greeting';

// TODO: greet everyone on the team, not just one name.
console.log(greeting('Tandem'));
console.log(farewell('Tandem'));
