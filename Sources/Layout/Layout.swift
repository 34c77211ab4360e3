import Model
// Page layout: see the Render/Layout helper branch.
