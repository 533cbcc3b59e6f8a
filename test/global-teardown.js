module.exports = (globalConfig) => require('./worker-databases').dropWorkerDatabases(globalConfig);
