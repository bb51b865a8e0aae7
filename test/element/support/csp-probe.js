// Loaded first by the strict-CSP test page: records every Content-Security-Policy violation.
window.cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.cspViolations.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample });
});
