// The guest pages' icons are the design system's one set (src/design/icons.tsx).
export { Icon, type IconName } from '../../../design/icons.tsx';
