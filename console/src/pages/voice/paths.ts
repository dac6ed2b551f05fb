// The console's own addresses of a CloudPBX's pages (under /console/).
export const pbxPath = (systemId: string, sub = '') => `/cloudpbxs/${systemId}${sub ? `/${sub}` : ''}`;
