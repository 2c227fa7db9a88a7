export function vendorAssets(): number;
