// Bottleneck's light build (no clustering), the one Octokit's throttling plugin uses, ships without types.
declare module "bottleneck/light.js" {
  import Bottleneck from "bottleneck";
  export default Bottleneck;
}
