export { };
