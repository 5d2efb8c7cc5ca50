import { farewell, greeting } from './greeting';

console.log(greeting('Tandem'));
console.log(farewell('Tandem'));
