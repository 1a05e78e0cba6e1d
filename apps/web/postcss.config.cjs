// Mantine's CSS relies on its postcss preset (rem(), light-dark(), breakpoints as variables).
module.exports = {
  plugins: {
    'postcss-preset-mantine': {},
  },
};
