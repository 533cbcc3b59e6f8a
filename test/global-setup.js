module.exports = (globalConfig) => require('./worker-databases').createWorkerDatabases(globalConfig);
