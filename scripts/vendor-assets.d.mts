export function vendorAssets(): number;
export function publishResults(): number;
